import HTTPTypes
import HearthMessages

extension ActionPage {
    /// The headers every action page goes out with: HTML, never cached, ``contentSecurityPolicy``, never framed, and
    /// no `Referer` that would carry the code to the continue URL's site.
    static let headers = PageHeaders.html(contentSecurityPolicy: contentSecurityPolicy)
}
