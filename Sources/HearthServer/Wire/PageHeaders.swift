import HTTPTypes

/// The headers of the HTML pages Hearth serves itself (the action page, the status page): HTML, never cached,
/// never framed, no `Referer`, no content sniffing, and the page's own `Content-Security-Policy`.
enum PageHeaders {
    static func html(contentSecurityPolicy: String) -> HTTPFields {
        [
            .contentType: "text/html; charset=utf-8",
            .cacheControl: "no-store",
            .contentSecurityPolicy: contentSecurityPolicy,
            HTTPField.Name("X-Frame-Options")!: "DENY",
            HTTPField.Name("Referrer-Policy")!: "no-referrer",
            .xContentTypeOptions: "nosniff",
        ]
    }
}
