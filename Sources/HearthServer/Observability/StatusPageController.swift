import HTTPTypes
import HearthConsole
import HearthCore
import Hummingbird
import NIOCore

/// `GET /console/status`: the status page for developers and operators (``StatusPage``, from
/// ``HearthServices/statusReport()``).
///
/// Who may see it: ``StatusPageAccessMiddleware``.
struct StatusPageController<Context: RequestContext>: Sendable {
    static var path: String { "/console/status" }

    /// What the page shows, read anew for each visit.
    let report: @Sendable () async -> StatusReport

    func addRoutes(to group: RouterGroup<Context>) {
        group.get(use: page)
    }

    @Sendable func page(_ request: Request, context: Context) async throws -> Response {
        let html = StatusPage.render(await report())
        return Response(status: .ok, headers: StatusPage.headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}

/// Lets through an administrator's credential, as the admin API does (``AdminAuthMiddleware``: the same answers
/// without one or with a wrong one), and in development mode also a browser on this machine that presents none:
/// the connection comes from loopback, the `Host` is a loopback name or address (a DNS-rebound name is not),
/// no proxy forwarded the request, and no other site's script asks (an `Origin` header, if any, is loopback too).
struct StatusPageAccessMiddleware<Context: CallerRequestContext & RemoteAddressRequestContext>: RouterMiddleware {
    let admin: AdminAuthMiddleware<Context>
    /// Development mode: a local browser needs no credential.
    let opensToLocalBrowsers: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if opensToLocalBrowsers, AdministratorCredentials.bearer(of: request) == nil, Self.isLocalVisit(request, peer: context.remoteAddress) {
            return try await next(request, context)
        }
        return try await admin.handle(request, context: context, next: next)
    }

    static func isLocalVisit(_ request: Request, peer: SocketAddress?) -> Bool {
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
    static func isLoopbackHost(_ authority: String) -> Bool {
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
}

extension IPAddress {
    /// `127.0.0.0/8` or `::1`.
    var isLoopback: Bool {
        bytes.count == 4 ? bytes[0] == 127 : bytes == Array(repeating: 0, count: 15) + [1]
    }
}
