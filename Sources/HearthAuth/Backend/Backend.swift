import Foundation
import HearthWire

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The REST calls of the SDK: Identity Toolkit v1 under `/identitytoolkit.googleapis.com/v1/…` (v2 for
/// `accounts:revokeToken`, the multi-factor and the passkey calls) and the Secure Token API under
/// `/securetoken.googleapis.com/v1/token`, on the app's Hearth server, as Firebase SDKs call them in emulator mode.
struct Backend: Sendable {
    /// `http://host:port`, no trailing slash.
    var baseURL: String
    var apiKey: String
    var languageCode: String?
    var transport: any AuthTransport
    /// Makes the resolver of a sign-in that needs a second factor; see ``post(path:body:)``.
    var resolver: (@Sendable (MFARequiredResponse) -> MultiFactorResolver)? = nil

    enum Endpoint: String {
        case signUp = "accounts:signUp"
        case signInWithPassword = "accounts:signInWithPassword"
        case signInWithIdp = "accounts:signInWithIdp"
        case signInWithCustomToken = "accounts:signInWithCustomToken"
        case lookup = "accounts:lookup"
        case update = "accounts:update"
        case delete = "accounts:delete"
        case createAuthUri = "accounts:createAuthUri"
        case sendOobCode = "accounts:sendOobCode"
        case resetPassword = "accounts:resetPassword"
        case signInWithEmailLink = "accounts:signInWithEmailLink"
        case revokeToken = "accounts:revokeToken"
        case sendVerificationCode = "accounts:sendVerificationCode"
        case signInWithPhoneNumber = "accounts:signInWithPhoneNumber"
        case startMFAEnrollment = "accounts/mfaEnrollment:start"
        case finalizeMFAEnrollment = "accounts/mfaEnrollment:finalize"
        case withdrawMFA = "accounts/mfaEnrollment:withdraw"
        case startMFASignIn = "accounts/mfaSignIn:start"
        case finalizeMFASignIn = "accounts/mfaSignIn:finalize"
        case generateRecoveryCodes = "accounts/mfaRecoveryCodes:generate"
        case startPasskeyEnrollment = "accounts/passkeyEnrollment:start"
        case finalizePasskeyEnrollment = "accounts/passkeyEnrollment:finalize"
        case startPasskeySignIn = "accounts/passkeySignIn:start"
        case finalizePasskeySignIn = "accounts/passkeySignIn:finalize"

        /// Identity Toolkit v1, but v2 for `accounts:revokeToken`, the multi-factor and the passkey calls (as FirebaseAuth
        /// calls them).
        var path: String {
            switch self {
            case .revokeToken, .startMFAEnrollment, .finalizeMFAEnrollment, .withdrawMFA, .startMFASignIn, .finalizeMFASignIn,
                .generateRecoveryCodes, .startPasskeyEnrollment, .finalizePasskeyEnrollment, .startPasskeySignIn, .finalizePasskeySignIn:
                "/identitytoolkit.googleapis.com/v2/\(rawValue)"
            default: "/identitytoolkit.googleapis.com/v1/\(rawValue)"
            }
        }
    }

    private static let encoder = JSONEncoder()

    func call<Response: Decodable>(_ endpoint: Endpoint, _ body: some Encodable, as: Response.Type = Response.self) async throws -> Response {
        try await post(path: endpoint.path, body: Self.encoder.encode(body))
    }

    /// `grant_type=refresh_token` at the Secure Token API.
    func refresh(_ refreshToken: String) async throws -> TokenResponse {
        try await post(path: "/securetoken.googleapis.com/v1/token", body: Self.encoder.encode(TokenRequest(refreshToken: refreshToken)))
    }

    /// `GET recaptchaParams`: what the server asks of a client before it sends an SMS code.
    func recaptchaParams() async throws -> GetRecaptchaParamResponse {
        try await post(path: "/identitytoolkit.googleapis.com/v1/recaptchaParams", body: nil)
    }

    /// A `POST` of `body`, or a `GET` without one.
    ///
    /// A successful answer with `mfaPendingCredential` and no `idToken` (a first factor of an account with second
    /// factors: password, identity provider, e-mail link or phone) becomes ``AuthErrorCode/secondFactorRequired``
    /// carrying a ``MultiFactorResolver`` under ``AuthErrorUserInfoMultiFactorResolverKey``, whatever the call, as in
    /// FirebaseAuth's `AuthBackend.call`.
    private func post<Response: Decodable>(path: String, body: Data?) async throws -> Response {
        guard var components = URLComponents(string: baseURL + path) else {
            throw AuthErrorFactory.error(.internalError, message: "The server URL \(baseURL) is not a valid URL.")
        }
        components.queryItems = [URLQueryItem(name: "key", value: apiKey)]
        guard let url = components.url else {
            throw AuthErrorFactory.error(.internalError, message: "The server URL \(baseURL) is not a valid URL.")
        }
        var request = URLRequest(url: url)
        if let body {
            request.httpMethod = "POST"
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else {
            request.httpMethod = "GET"
        }
        request.setValue("Swift/HearthAuth", forHTTPHeaderField: "X-Client-Version")
        // As FirebaseAuth sends it: the server picks Apple's client id by it (accounts:revokeToken).
        if let bundleID = Bundle.main.bundleIdentifier { request.setValue(bundleID, forHTTPHeaderField: "X-Ios-Bundle-Identifier") }
        if let languageCode {
            request.setValue(languageCode, forHTTPHeaderField: "X-Firebase-Locale")
            request.setValue(languageCode, forHTTPHeaderField: "Accept-Language")
        }

        let data: Data
        let response: HTTPURLResponse
        do {
            (data, response) = try await transport.send(request)
        } catch {
            throw AuthErrorFactory.error(.networkError, underlying: error)
        }
        guard (200..<300).contains(response.statusCode) else {
            if let envelope = try? JSONDecoder().decode(WireErrorResponse.self, from: data) {
                throw AuthErrorFactory.serverError(
                    message: envelope.error.message, reasons: envelope.error.errors.map(\.reason), status: response.statusCode)
            }
            let text = String(decoding: data.prefix(512), as: UTF8.self)
            throw AuthErrorFactory.serverError(message: text.isEmpty ? "HTTP \(response.statusCode)" : text, reasons: [], status: response.statusCode)
        }
        if let resolver, data.range(of: Data(#""mfaPendingCredential""#.utf8)) != nil,
            let pending = try? JSONDecoder().decode(PendingSecondFactor.self, from: data), pending.idToken == nil
        {
            let required = MFARequiredResponse(
                localId: pending.localId ?? "", email: pending.email, mfaPendingCredential: pending.mfaPendingCredential,
                mfaInfo: pending.mfaInfo ?? [])
            throw AuthErrorFactory.error(.secondFactorRequired, extra: [AuthErrorUserInfoMultiFactorResolverKey: resolver(required)])
        }
        do {
            return try JSONDecoder().decode(Response.self, from: data)
        } catch {
            let decoding = NSError(domain: "FIRAuthInternalErrorDomain", code: 5, userInfo: [NSUnderlyingErrorKey: error as NSError])
            throw AuthErrorFactory.error(.internalError, message: "The server's response could not be decoded.", underlying: decoding)
        }
    }
}

/// Whether an answer asks for a second factor: `mfaPendingCredential` and no ID token.
private struct PendingSecondFactor: Decodable {
    var mfaPendingCredential: String
    var idToken: String?
    var localId: String?
    var email: String?
    var mfaInfo: [MFAEnrollment]?
}
