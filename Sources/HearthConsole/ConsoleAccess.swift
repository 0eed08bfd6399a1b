import HTTPTypes
import HearthCore
import Hummingbird
import NIOCore

/// Where a console request comes from: a browser on this machine (development mode lets it in as owner), and whether
/// another site sent it (a state-changing request must come from the console's own pages).
public enum ConsoleAccess {
    /// A browser on this machine: the connection comes from loopback, the `Host` is a loopback name or address (a
    /// DNS-rebound name is not), no proxy forwarded the request, and no other site's script asks (an `Origin` header, if
    /// any, is loopback too).
    public static func isLocalVisit(_ request: Request, peer: SocketAddress?) -> Bool {
        guard let peer = peer?.ipAddress.flatMap(IPAddress.init), peer.isLoopback else { return false }
        guard let authority = request.head.authority, isLoopbackHost(authority) else { return false }
        for forwarded in ["Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Real-IP"] where request.headers[HTTPField.Name(forwarded)!] != nil {
            return false
        }
        if let origin = request.headers[.origin] {
            guard origin.hasPrefix("http://") || origin.hasPrefix("https://"), let host = origin.split(separator: "/", maxSplits: 2).last,
                isLoopbackHost(String(host))
            else { return false }
        }
        return true
    }

    /// Whether `authority` (`host`, `host:port`, `[v6]:port`) names this machine: `localhost`, `127.x.x.x` or `::1`.
    public static func isLoopbackHost(_ authority: String) -> Bool {
        var host = Substring(authority)
        if host.hasPrefix("[") {
            guard let end = host.firstIndex(of: "]") else { return false }
            let rest = host[host.index(after: end)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber)) else { return false }
            host = host[...end]
        } else if let colon = host.lastIndex(of: ":") {
            guard host[host.index(after: colon)...].allSatisfy(\.isNumber) else { return false }
            host = host[..<colon]
        }
        if host.lowercased() == "localhost" { return true }
        return IPAddress(host)?.isLoopback ?? false
    }

    /// Whether a state-changing request came from another site. A browser's `Sec-Fetch-Site` decides when there is one
    /// (`same-origin` only; a page's script cannot set it). Without it, an `Origin` must name the request's own `Host`:
    /// `null` is refused (what a sandboxed frame sends, and what older browsers send under the pages' `no-referrer`
    /// policy: they must use a browser that sends `Sec-Fetch-Site`). A request with neither (not a browser's) is not
    /// refused here: its form token still has to be right.
    public static func isCrossSite(_ request: Request) -> Bool {
        if let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!] { return site != "same-origin" }
        guard let origin = request.headers[.origin] else { return false }
        guard let authority = request.head.authority else { return true }
        for scheme in ["http://", "https://"] where origin.hasPrefix(scheme) {
            return origin.dropFirst(scheme.count).lowercased() != authority.lowercased()
        }
        return true
    }
}

extension IPAddress {
    /// `127.0.0.0/8` or `::1`.
    var isLoopback: Bool {
        bytes.count == 4 ? bytes[0] == 127 : bytes == Array(repeating: 0, count: 15) + [1]
    }
}
