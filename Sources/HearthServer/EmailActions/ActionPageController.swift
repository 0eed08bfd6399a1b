import Foundation
import HTTPTypes
import HearthConfiguration
import HearthCore
import HearthFormEncoding
import HearthMessages
import HearthProviders
import HearthWireMapping
import Hummingbird
import NIOCore

/// `GET|POST /__/auth/action`: the page an action link opens, like Firebase's hosted action handler.
///
/// A GET only shows: the reset form, or a button that confirms a verification, change or recovery (mail
/// scanners fetch links, and a fetch must not spend a code). The POST does the action. `mode=signIn` goes
/// on to the app's `continueUrl` with the link's parameters, where the app calls `signInWithEmailLink`.
/// Pages carry no script, a strict Content-Security-Policy, and are never framed or cached.
struct ActionPageController<Context: RequestContext>: Sendable {
    let actions: EmailActions
    let store: any AccountStore
    let configuration: ServerConfiguration

    static var path: String { ActionPage.path }
    /// The largest form the page posts (a code, two passwords and a continue URL).
    static var maximumBodySize: Int { 16 * 1024 }

    static func addRoutes(to router: Router<Context>, from source: ControllerSource<Self, Context>) {
        router.get(RouterPath(Self.path), use: source { $0.page })
        router.post(RouterPath(Self.path), use: source { $0.page })
    }

    @Sendable func page(_ request: Request, context: Context) async throws -> Response {
        var fields = BrowserCallback.formFields(request.uri.query ?? "")
        if request.method == .post {
            let buffer = try await WireCoding.body(of: request, limit: Self.maximumBodySize)
            fields = BrowserCallback.formFields(String(buffer: buffer))
        }
        let language = fields["lang"].map(EmailActions.languageTag)
        // A continue URL that is not authorized is dropped, not followed.
        let continueURL = fields["continueUrl"].flatMap { try? ContinueURL.check($0, authorizedHosts: configuration.authorizedContinueHosts) }
        if request.method == .post, fields[ActionPage.Field.mode] == ActionPage.sendPasswordResetMode {
            do {
                return try await sendReset(email: fields[ActionPage.Field.email], continueURL: continueURL, language: language)
            } catch let error as HearthError {
                return failure(error, language)
            }
        }
        guard let code = fields["oobCode"], !code.isEmpty else { return render(.failed(reason: .missingCode), language, status: .badRequest) }
        guard let mode = fields["mode"], let kind = ActionCodeKind(mode: mode) else {
            return render(.failed(reason: .unknownMode), language, status: .badRequest)
        }
        do {
            if request.method == .post {
                return try await post(kind, code: code, fields: fields, continueURL: continueURL, language: language)
            }
            let record = try await actions.redemption.codes.peek(code)
            guard record.kind == kind else { throw HearthError(.invalidOOBCode) }
            let pageLanguage = language ?? record.languageCode
            switch kind {
            case .passwordReset:
                return render(
                    .resetPasswordForm(email: record.email, oobCode: code, continueURL: continueURL, error: nil), pageLanguage)
            case .emailSignIn:
                // The app finishes the sign-in: it gets the link's parameters at its continue URL.
                guard let target = continueURL.flatMap({ Self.appending(fields, to: $0) }) else {
                    return render(.failed(reason: .invalid), pageLanguage, status: .badRequest)
                }
                return Response(
                    status: .seeOther, headers: Self.headers(extra: [.location: target]), body: ResponseBody(byteBuffer: ByteBuffer()))
            case .verifyEmail, .verifyAndChangeEmail, .recoverEmail:
                return render(
                    .confirm(kind: kind, email: record.email, newEmail: record.newEmail, oobCode: code, continueURL: continueURL), pageLanguage)
            case .revertSecondFactorAddition:
                let factor = try await record.uid.asyncMap { try await actions.redemption.store.user(uid: $0) }??.secondFactors.first {
                    $0.id == record.mfaEnrollmentID
                }
                guard let factor else { throw HearthError(.invalidOOBCode, reason: "the factor was withdrawn already") }
                return render(
                    .confirm(kind: kind, email: record.email, newEmail: EmailActions.name(of: factor), oobCode: code, continueURL: continueURL),
                    pageLanguage)
            }
        } catch let error as HearthError {
            return failure(error, language)
        }
    }

    private func post(_ kind: ActionCodeKind, code: String, fields: [String: String], continueURL: String?, language: String?) async throws
        -> Response
    {
        switch kind {
        case .passwordReset:
            let password = fields["newPassword"] ?? ""
            let again = fields["confirmPassword"] ?? ""
            func form(_ error: ActionPage.ResetFormError) async throws -> Response {
                let record = try await actions.redemption.codes.peek(code)
                return render(
                    .resetPasswordForm(email: record.email, oobCode: code, continueURL: continueURL, error: error), language,
                    status: .badRequest)
            }
            guard password == again else { return try await form(.passwordsDiffer) }
            guard PasswordPolicy.accepts(password) else { return try await form(.tooShort(minimumLength: PasswordPolicy.minimumLength)) }
            do {
                _ = try await actions.redemption.resetPassword(code: code, newPassword: password)
            } catch let error as HearthError where error.code == .weakPassword {
                return try await form(.tooShort(minimumLength: 6))
            }
            return render(.resetPasswordDone(continueURL: continueURL), language)
        case .verifyEmail, .verifyAndChangeEmail, .recoverEmail, .revertSecondFactorAddition:
            let (record, user) = try await actions.redemption.apply(code: code)
            switch record.kind {
            case .verifyEmail: return render(.emailVerified(continueURL: continueURL), language)
            case .verifyAndChangeEmail: return render(.emailChanged(newEmail: user.email ?? "", continueURL: continueURL), language)
            case .revertSecondFactorAddition: return render(.secondFactorReverted(continueURL: continueURL), language)
            default: return render(.emailRecovered(email: record.email, continueURL: continueURL, resetOffered: true), language)
            }
        case .emailSignIn:
            return render(.failed(reason: .invalid), language, status: .badRequest)
        }
    }

    /// The "reset your password" button of the recovery page: a reset mail to the restored address, with the
    /// limits and the silence about unknown addresses of `sendOobCode`.
    private func sendReset(email rawEmail: String?, continueURL: String?, language: String?) async throws -> Response {
        guard let email = rawEmail.flatMap(EmailAddress.normalize) else { return render(.failed(reason: .invalid), language, status: .badRequest) }
        try await actions.countMail(to: email, kind: .passwordReset)
        if let user = try await store.user(email: email), !user.disabled {
            let issued = try await actions.issue(.passwordReset, uid: user.uid, email: email, continueURL: continueURL, languageCode: language)
            try await actions.send(.passwordReset, to: email, link: issued.link, languageCode: language)
        }
        return render(.resetMailSent(email: email, continueURL: continueURL), language)
    }

    private func failure(_ error: HearthError, _ language: String?) -> Response {
        switch error.code {
        case .expiredOOBCode: render(.failed(reason: .expired), language, status: .badRequest)
        case .invalidOOBCode, .userNotFound: render(.failed(reason: .invalid), language, status: .badRequest)
        case .emailExists, .passwordLoginDisabled, .operationNotAllowed: render(.failed(reason: .invalid), language, status: .badRequest)
        case .tooManyAttempts, .resetPasswordExceedLimit: render(.failed(reason: .invalid), language, status: .tooManyRequests)
        default: render(.failed(reason: .invalid), language, status: .serviceUnavailable)
        }
    }

    private func render(_ state: ActionPage.State, _ language: String?, status: HTTPResponse.Status = .ok) -> Response {
        let html = ActionPage.render(state, languageCode: language, appName: actions.appName)
        return Response(
            status: status, headers: ActionPage.headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// No script, no framing, no caching, no referrer (the URL holds a code).
    static func headers(extra: HTTPFields) -> HTTPFields {
        var headers = ActionPage.headers
        for field in extra { headers[field.name] = field.value }
        return headers
    }

    /// `continueURL` with the link's parameters added to its query (what Firebase's handler does for `signIn`).
    static func appending(_ fields: [String: String], to continueURL: String) -> String? {
        guard var components = URLComponents(string: continueURL) else { return nil }
        var items = components.queryItems ?? []
        for name in ["apiKey", "oobCode", "mode", "continueUrl", "lang"] {
            if let value = fields[name] { items.append(URLQueryItem(name: name, value: value)) }
        }
        components.percentEncodedQuery = items.map { "\(FormEncoding.percentEncode($0.name))=\(FormEncoding.percentEncode($0.value ?? ""))" }
            .joined(separator: "&")
        return components.string
    }
}
