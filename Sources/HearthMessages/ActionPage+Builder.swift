extension ActionPage {
    /// Puts a page together; every value it is given is escaped here.
    struct Builder {
        let language: EmailActionLanguage
        private var title = ""
        private var body = ""

        init(language: EmailActionLanguage) {
            self.language = language
        }

        /// The page's one `<h1>` and the paragraphs under it.
        mutating func heading(_ text: PageText) {
            title = text.heading
            body += "<h1>\(DisplayText.html(text.heading))</h1>\n"
            for paragraph in text.paragraphs {
                self.paragraph(paragraph)
            }
        }

        mutating func paragraph(_ text: String) {
            body += "<p>\(DisplayText.html(text))</p>\n"
        }

        /// A form that posts `mode`, `fields`, the continue URL and the language to ``ActionPage/path``.
        mutating func form(
            mode: String, fields: [(name: String, value: String)], continueURL: String?, content: (inout Form) -> Void
        ) {
            var form = Form()
            var hidden = [(Field.mode, mode)] + fields
            if let continueURL {
                hidden.append((Field.continueURL, continueURL))
            }
            hidden.append((Field.lang, language.code))
            for (name, value) in hidden {
                form.append("<input type=\"hidden\" name=\"\(DisplayText.html(name))\" value=\"\(DisplayText.html(value))\">\n")
            }
            content(&form)
            body += "<form method=\"post\" action=\"\(ActionPage.path)\">\n\(form.html)</form>\n"
        }

        /// A link to the app's continue URL, if there is one and it is `http` or `https`.
        mutating func continueLink(_ continueURL: String?, label: String) {
            guard let continueURL, continueURL.lowercased().hasPrefix("https://") || continueURL.lowercased().hasPrefix("http://") else { return }
            body += "<p class=\"next\"><a class=\"button\" href=\"\(DisplayText.html(continueURL))\">\(DisplayText.html(label))</a></p>\n"
        }

        func document(appName: String) -> String {
            let fullTitle = appName.isEmpty ? title : "\(title) – \(appName)"
            let appLine = appName.isEmpty ? "" : "<p class=\"app\">\(DisplayText.html(appName))</p>\n"
            return """
                <!doctype html>
                <html lang="\(language.code)" dir="\(language.direction)">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <meta name="referrer" content="no-referrer">
                <meta name="robots" content="noindex, nofollow">
                <title>\(DisplayText.html(fullTitle))</title>
                <style>\(ActionPage.styleSheet)</style>
                </head>
                <body>
                <main>
                \(appLine)\(body)</main>
                </body>
                </html>

                """
        }
    }

    /// The inside of a form.
    struct Form {
        private(set) var html = ""

        mutating func append(_ markup: String) {
            html += markup
        }

        mutating func append(submit label: String) {
            html += "<button type=\"submit\">\(DisplayText.html(label))</button>\n"
        }
    }

    /// Light and dark colours with at least 4.5:1 contrast for text, a visible focus ring, and a single column that
    /// fits a phone.
    static let styleSheet = """
        :root{color-scheme:light dark;--bg:#f4f4f2;--card:#fff;--text:#1f1f1f;--muted:#4d4d4d;--accent:#1a56db;--on-accent:#fff;\
        --error-bg:#fdecea;--error-text:#8a1c12;--border:#8c8c8c}
        @media (prefers-color-scheme:dark){:root{--bg:#121212;--card:#1e1e1e;--text:#ececec;--muted:#c4c4c4;--accent:#8ab4f8;\
        --on-accent:#0b1a33;--error-bg:#3b1512;--error-text:#ffd9d4;--border:#9a9a9a}}
        *{box-sizing:border-box}
        body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:1rem;background:var(--bg);\
        color:var(--text);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif}
        main{width:100%;max-width:30rem;padding:2rem 1.5rem;background:var(--card);border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.15)}
        .app{margin:0 0 .5rem;color:var(--muted);font-size:.9rem}
        h1{margin:0 0 1rem;font-size:1.4rem;line-height:1.3}
        p{margin:0 0 1rem}
        form{margin:1.5rem 0 0}
        .field{margin:0 0 1rem}
        label{display:block;margin:0 0 .25rem;font-weight:600}
        input[type=password]{width:100%;padding:.65rem .75rem;font:inherit;color:var(--text);background:var(--card);\
        border:1px solid var(--border);border-radius:6px}
        input[aria-invalid=true]{border-color:var(--error-text)}
        button,.button{display:inline-block;width:100%;padding:.75rem 1rem;font:inherit;font-weight:600;text-align:center;\
        text-decoration:none;color:var(--on-accent);background:var(--accent);border:2px solid var(--accent);border-radius:6px;cursor:pointer}
        a.button{color:var(--accent);background:transparent}
        .next{margin:1.5rem 0 0}
        :focus-visible{outline:3px solid var(--accent);outline-offset:2px}
        .error{margin:0 0 1rem;padding:.75rem 1rem;background:var(--error-bg);color:var(--error-text);border-left:4px solid var(--error-text);\
        border-radius:4px}
        .error p{margin:0}
        .error p+p{margin-top:.5rem}
        @media (min-width:40rem){main{padding:2.5rem 2rem}}
        """
}
