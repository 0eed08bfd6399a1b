import HTTPTypes
import HearthServer
import Hummingbird
import NIOCore

/// Development mode's passkey page at `/sandbox/passkeys`: sign up anonymously, enrol a passkey, sign out and sign in
/// with it username-less, through the four passkey endpoints and the browser's WebAuthn, so that a developer can try
/// passkeys by hand and the browser tests can drive a real ceremony. Open it at `http://localhost:<port>` (not
/// `127.0.0.1`): development mode's relying party is `localhost`, and WebAuthn refuses a page of another host.
/// `?tenant=<id>` makes it a tenant's page: every call names the tenant.
///
/// The page's script is its own file (`/sandbox/passkeys.js`), so its `Content-Security-Policy` allows no inline script.
struct PasskeyPage: Sendable {
    static let path = "\(SandboxExtension.mountPath)/passkeys"

    func addRoutes(to router: Router<HearthRequestContext>) {
        router.get(RouterPath(Self.path)) { _, _ in Self.response(Self.html, type: "text/html; charset=utf-8") }
        router.get(RouterPath(Self.path + ".js")) { _, _ in Self.response(PasskeyPageScript.source, type: "text/javascript; charset=utf-8") }
    }

    static func response(_ body: String, type: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: type, .cacheControl: "no-store",
                .contentSecurityPolicy: "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'",
                HTTPField.Name("X-Frame-Options")!: "DENY", HTTPField.Name("X-Content-Type-Options")!: "nosniff",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    static let html = """
        <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Passkeys · Hearth development mode</title><style>
        body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:50rem;padding:1rem;color:#1b1b1b}
        .banner{background:#ffe8a3;border:1px solid #b38600;padding:.5rem 1rem;border-radius:.4rem}
        button{font:inherit;margin:.2rem .4rem .2rem 0;padding:.3rem .8rem}#error{color:#a00;font-weight:bold}
        dt{font-weight:bold}dd{margin:0 0 .5rem;word-break:break-all}code{font-size:.85rem}
        </style><script src="/sandbox/passkeys.js" defer></script></head><body><main><h1>Passkeys</h1>
        <p class="banner">Development mode: open this page at <b>http://localhost:&lt;port&gt;</b>, the relying party passkeys are \
        bound to. The passkeys are real: your browser's or device's authenticator makes and signs them.</p>
        <p><button id="sign-up" type="button">Sign up anonymously</button>
        <label>Passkey name <input id="name" value="This browser" maxlength="100"></label>
        <button id="enrol" type="button">Enrol a passkey</button>
        <button id="sign-out" type="button">Sign out</button>
        <button id="sign-in" type="button">Sign in with a passkey</button></p>
        <p id="status" role="status">Signed out.</p><p id="error" role="alert"></p>
        <dl><dt>Tenant <small>(<code>?tenant=</code> in the address)</small></dt><dd id="tenant">none (the project)</dd><dt>User</dt><dd id="uid">none</dd><dt>Signed in with</dt><dd id="provider">none</dd>
        <dt>ID token</dt><dd><code id="id-token"></code></dd></dl>
        </main></body></html>
        """
}
