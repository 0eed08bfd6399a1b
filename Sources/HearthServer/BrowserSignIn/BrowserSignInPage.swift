import HTTPTypes
import Hummingbird
import NIOCore

/// The pages the redirect handler shows when it cannot send the browser back to the app: the provider's
/// answer carries no state Hearth issued, or one that was used or has expired. Plain HTML, no script, and
/// nothing from the request echoed back.
struct BrowserSignInPage: Sendable {
    let status: HTTPResponse.Status
    let title: String
    let message: String

    static let missingState = BrowserSignInPage(
        status: .badRequest, title: "This sign-in link is incomplete",
        message: "The identity provider sent the browser back without the sign-in's state. Go back to the app and start the sign-in again.")
    static let unknownState = BrowserSignInPage(
        status: .badRequest, title: "This sign-in link is not valid",
        message: "The sign-in was already completed, or the link was changed. Nothing was signed in. Go back to the app and start the sign-in again.")
    static let expiredState = BrowserSignInPage(
        status: .badRequest, title: "This sign-in link has expired",
        message: "The sign-in took too long to complete. Nothing was signed in. Go back to the app and start the sign-in again.")

    var response: Response {
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title)</title>
            <style>body{font-family:system-ui,sans-serif;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center;background:#f6f6f4}
            main{max-width:32rem;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.12)}
            h1{font-size:1.3rem;margin-top:0}</style></head>
            <body><main><h1>\(title)</h1><p>\(message)</p></main></body></html>
            """
        return Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}
