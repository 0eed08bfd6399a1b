import Foundation
import HTTPTypes
import HearthCore
import HearthProviders
import Hummingbird
import NIOCore

/// `GET|POST /__/auth/handler`: where every provider sends the browser back (Apple with
/// `response_mode=form_post`). See ``BrowserSignIn/handle(_:)`` and docs/browser-sign-in.md.
struct BrowserSignInController<Context: RequestContext>: Sendable {
    let browserSignIn: BrowserSignIn

    /// The largest form body the handler reads (Apple posts a code, a state and a small JSON; a SAML IdP a signed
    /// response of up to HearthSAML's 512 KiB, base64 and form-encoded).
    static var maximumBodySize: Int { 1024 * 1024 }

    static func addRoutes(to router: Router<Context>, from source: ControllerSource<Self, Context>) {
        router.get("/__/auth/handler", use: source { $0.handler })
        router.post("/__/auth/handler", use: source { $0.handler })
    }

    /// The query's fields and, for a form post, the form's (which win, as the provider posted them).
    static func parameters(of request: Request) async throws -> [String: String] {
        var parameters = BrowserCallback.formFields(request.uri.query ?? "")
        if request.method == .post, Self.isForm(request) {
            let buffer = try await WireCoding.body(of: request, limit: Self.maximumBodySize)
            parameters.merge(BrowserCallback.formFields(String(buffer: buffer))) { _, posted in posted }
        }
        // A SAML IdP posts the sign-in's state as RelayState.
        if parameters["SAMLResponse"] != nil, let relayState = parameters["RelayState"] { parameters["state"] = relayState }
        return parameters
    }

    @Sendable func handler(_ request: Request, context: Context) async throws -> Response {
        switch try await browserSignIn.handle(try await Self.parameters(of: request)) {
        case .page(let page):
            return page.response
        case .redirect(let url):
            let escaped = url.absoluteString.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
                .replacingOccurrences(of: "<", with: "&lt;")
            let html = """
                <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Returning to the app</title></head>
                <body><p>Signing you in… <a href="\(escaped)">Return to the app</a>.</p></body></html>
                """
            return Response(
                status: .seeOther,
                headers: [.location: url.absoluteString, .contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
        }
    }

    static func isForm(_ request: Request) -> Bool {
        guard let type = request.headers[.contentType] else { return false }
        return type.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "application/x-www-form-urlencoded"
    }
}
