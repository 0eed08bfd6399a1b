import HTTPTypes
import HearthConsole

extension StatusPage {
    /// The headers the page goes out with: HTML, never cached, ``contentSecurityPolicy``, never framed, no `Referer`.
    static let headers = PageHeaders.html(contentSecurityPolicy: contentSecurityPolicy)
}
