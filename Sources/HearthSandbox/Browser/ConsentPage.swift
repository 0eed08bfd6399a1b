import Foundation
import Hummingbird

/// The sandbox's stand-in for a provider's sign-in and consent screen: a real HTML form on which a person
/// picks one of the provider's test identities and approves or cancels.
///
/// The form posts back to the page's own URL with every parameter of the original request as hidden fields,
/// plus `sandbox_subject` (the chosen identity) and `sandbox_decision` (`approve` or `cancel`). Scripts and
/// tests can skip the page by putting those two in the authorization URL's query.
struct ConsentPage {
    let providerName: String
    /// `#rrggbb`, the provider's colour for the header.
    let accent: String
    let clientID: String
    let redirectURI: String
    let scopes: [String]
    /// Parameters the app passed through (custom parameters), shown so a developer sees they arrived.
    let passedParameters: [(String, String)]
    let identities: [SandboxIdentity]
    /// The identity selected at first (`login_hint`), else the first.
    let preselected: String?
    /// Every parameter to post back.
    let hiddenFields: [(String, String)]
    /// A note for this provider (e.g. Microsoft's tenant).
    let note: String?

    /// The parameters that are the protocol's own and not worth showing as "passed through".
    static let protocolParameters: Set<String> = [
        "client_id", "redirect_uri", "response_type", "scope", "state", "response_mode", "nonce", "code_challenge",
        "code_challenge_method", "oauth_token", "sandbox_subject", "sandbox_decision",
    ]

    var response: Response {
        SandboxHTTP.text(html, status: .ok, contentType: "text/html; charset=utf-8")
    }

    var html: String {
        let selected = preselected.flatMap { subject in identities.first { $0.subject == subject }?.subject } ?? identities.first?.subject
        var choices = ""
        for identity in identities {
            let checked = identity.subject == selected ? " checked" : ""
            let name = identity.displayName ?? identity.screenName.map { "@\($0)" } ?? "Unnamed account"
            let initial = String(name.first(where: { $0.isLetter }) ?? "?").uppercased()
            choices += """
                <label class="choice"><input type="radio" name="sandbox_subject" value="\(Self.escape(identity.subject))"\(checked)>
                <span class="avatar">\(Self.escape(initial))</span><span class="who"><strong>\(Self.escape(name))</strong>
                <small>\(Self.escape(identity.email ?? "no e-mail address"))</small><small class="sub">id \(Self.escape(identity.subject))</small></span></label>

                """
        }
        if identities.isEmpty { choices = "<p class=\"empty\">This provider has no test accounts that may sign in here.</p>" }
        let hidden = hiddenFields.map { "<input type=\"hidden\" name=\"\(Self.escape($0.0))\" value=\"\(Self.escape($0.1))\">" }
            .joined(separator: "\n")
        let scopeList = scopes.isEmpty ? "<li>basic profile</li>" : scopes.map { "<li><code>\(Self.escape($0))</code></li>" }.joined()
        let passed =
            passedParameters.isEmpty
            ? ""
            : """
            <p class="meta">Parameters from the app: \(passedParameters.map { "<code>\(Self.escape($0.0))=\(Self.escape($0.1))</code>" }.joined(separator: " "))</p>
            """
        let noteHTML = note.map { "<p class=\"meta\">\(Self.escape($0))</p>" } ?? ""
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Sign in with \(Self.escape(providerName)) — Hearth sandbox</title>
            <style>
            body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",sans-serif;background:#eef0f3;color:#1d1d1f}
            .card{max-width:30rem;margin:3rem auto;background:#fff;border-radius:14px;box-shadow:0 2px 12px rgba(0,0,0,.12);overflow:hidden}
            header{background:\(accent);color:#fff;padding:1.1rem 1.5rem}
            header h1{margin:0;font-size:1.25rem}header p{margin:.2rem 0 0;font-size:.85rem;opacity:.9}
            main{padding:1.2rem 1.5rem 1.5rem}
            .app{font-size:.95rem;margin:0 0 .6rem}.app code{word-break:break-all}
            ul.scopes{margin:.2rem 0 1rem 1.1rem;padding:0;font-size:.9rem}
            .choice{display:flex;align-items:center;gap:.75rem;border:1px solid #d7d9de;border-radius:10px;padding:.6rem .8rem;margin:.5rem 0;cursor:pointer}
            .choice:has(input:checked){border-color:\(accent);box-shadow:0 0 0 2px \(accent)33}
            .avatar{width:2.2rem;height:2.2rem;border-radius:50%;background:\(accent);color:#fff;display:flex;align-items:center;justify-content:center;font-weight:600}
            .who{display:flex;flex-direction:column}.who small{color:#555}.who .sub{color:#999;font-size:.7rem}
            .buttons{display:flex;gap:.8rem;margin-top:1.2rem}
            button{flex:1;padding:.7rem;border-radius:8px;font-size:1rem;cursor:pointer;border:1px solid #c4c7cc;background:#fff}
            button.approve{background:\(accent);border-color:\(accent);color:#fff;font-weight:600}
            .meta{font-size:.8rem;color:#666;margin:.4rem 0}.meta code{background:#f1f2f4;padding:0 .25rem;border-radius:4px}
            footer{font-size:.75rem;color:#888;text-align:center;padding:0 1.5rem 1.2rem}
            </style></head>
            <body><div class="card">
            <header><h1>Sign in with \(Self.escape(providerName))</h1><p>Hearth provider sandbox · test accounts only</p></header>
            <main>
            <p class="app">An app (<code>\(Self.escape(clientID))</code>) asks to sign you in and to see:</p>
            <ul class="scopes">\(scopeList)</ul>
            \(passed)\(noteHTML)
            <form method="post" action="">
            \(hidden)
            <fieldset style="border:0;padding:0;margin:0"><legend class="meta">Choose an account</legend>
            \(choices)</fieldset>
            <div class="buttons"><button type="submit" name="sandbox_decision" value="cancel">Cancel</button>
            <button class="approve" type="submit" name="sandbox_decision" value="approve">Approve</button></div>
            </form>
            <p class="meta">You will be sent back to <code>\(Self.escape(redirectURI))</code>.</p>
            </main>
            <footer>Development only. Nothing here talks to the real \(Self.escape(providerName)).</footer>
            </div></body></html>
            """
    }

    /// A page for an authorization request the provider would refuse outright (unknown client, no redirect URI).
    static func refusal(_ providerName: String, title: String, detail: String) -> Response {
        let page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escape(title)) — \(escape(providerName)) (Hearth sandbox)</title>
            <style>body{font-family:system-ui,sans-serif;margin:3rem auto;max-width:34rem}</style></head>
            <body><h1>\(escape(title))</h1><p>\(escape(detail))</p></body></html>
            """
        return SandboxHTTP.text(page, status: .badRequest, contentType: "text/html; charset=utf-8")
    }

    /// An HTML page that posts `fields` to `action` as soon as it loads (`response_mode=form_post`), with a
    /// button for browsers without script.
    static func formPost(action: String, fields: [(String, String)]) -> Response {
        let inputs = fields.map { "<input type=\"hidden\" name=\"\(escape($0.0))\" value=\"\(escape($0.1))\">" }.joined(separator: "\n")
        let page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Returning to the app…</title></head>
            <body onload="document.forms[0].submit()">
            <form method="post" action="\(escape(action))">
            \(inputs)
            <noscript><button type="submit">Continue</button></noscript>
            </form></body></html>
            """
        return SandboxHTTP.text(page, status: .ok, contentType: "text/html; charset=utf-8")
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }
}
