import Mustache

/// The built-in mail layouts, filled with a language's ``MailText``. The HTML one uses inline styles only (mail
/// clients drop `<style>` and never load what is not in the mail) and shows the link as a button and as text.
enum MailLayout {
    static let html = try! MustacheTemplate(
        string: """
            <!doctype html>
            <html lang="{{lang}}" dir="{{dir}}">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light">
            <title>{{subject}}</title>
            </head>
            <body style="margin:0;padding:0;background-color:#f4f4f2;">
            <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f4f4f2;">
            <tr><td align="center" style="padding:24px 12px;">
            <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background-color:#ffffff;border-radius:8px;">
            <tr><td style="padding:32px 28px;font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans',Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5;color:#1f1f1f;">
            <p style="margin:0 0 8px;font-size:14px;color:#4d4d4d;">{{appName}}</p>
            <h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#1f1f1f;">{{heading}}</h1>
            {{#paragraphs}}
            <p style="margin:0 0 16px;">{{.}}</p>
            {{/paragraphs}}
            <table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px;">
            <tr><td style="border-radius:6px;background-color:#1a56db;">
            <a href="{{link}}" style="display:inline-block;padding:12px 24px;font-size:16px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:6px;">{{button}}</a>
            </td></tr>
            </table>
            <p style="margin:0 0 4px;font-size:14px;color:#4d4d4d;">{{linkHint}}</p>
            <p style="margin:0 0 24px;font-size:14px;word-break:break-all;"><a href="{{link}}" style="color:#1a56db;">{{link}}</a></p>
            <p style="margin:0;font-size:14px;color:#4d4d4d;">{{footer}}</p>
            </td></tr>
            </table>
            </td></tr>
            </table>
            </body>
            </html>

            """)

    static let text = try! MustacheTemplate(
        string: """
            {{% CONTENT_TYPE: TEXT}}
            {{heading}}

            {{#paragraphs}}
            {{.}}

            {{/paragraphs}}
            {{button}}:
            {{link}}

            {{footer}}

            {{appName}}

            """)

    /// What the layouts are filled with.
    static func values(_ text: MailText, language: EmailActionLanguage, appName: String, link: String) -> [String: Any] {
        [
            "lang": language.code, "dir": language.direction, "subject": text.subject, "heading": text.heading,
            "paragraphs": text.paragraphs, "button": text.button, "link": link, "linkHint": language.strings.linkHint,
            "footer": text.footer, "appName": appName,
        ]
    }
}
