import HTTPTypes
import HearthCore
import Hummingbird
import NIOCore

/// The client's address of a request (``ClientAddressRule``: the peer, or what trusted proxies forwarded).
struct ClientAddressResolver: Sendable {
    let trustedProxies: [IPAddressRange]

    static let forwardedFor = HTTPField.Name("x-forwarded-for")!
    /// The key of requests whose peer is unknown (the in-process test router has no socket).
    static let unknown = "unknown"

    /// The client address of a request whose peer is `peer` (text form), as a counter key
    /// (``IPAddress/limitKey``: IPv6 clients count per /64).
    func resolve(peer: String?, headers: HTTPFields) -> String {
        address(peer: peer, headers: headers)?.limitKey ?? Self.unknown
    }

    /// The client's address itself; `nil` when the peer is unknown.
    func address(peer: String?, headers: HTTPFields) -> IPAddress? {
        ClientAddressRule(trustedProxies: trustedProxies).client(peer: peer, forwardedFor: headers[values: Self.forwardedFor])
    }

    func resolve(_ request: Request, context: some RequestContext) -> String {
        address(request, context: context)?.limitKey ?? Self.unknown
    }

    func address(_ request: Request, context: some RequestContext) -> IPAddress? {
        RequestRecord.clientAddress {
            ClientAddressRule(trustedProxies: trustedProxies).client(
                peerAddress: Self.peer(context), forwardedFor: request.headers[values: Self.forwardedFor])
        }
    }

    /// The peer's address from the socket's bytes (4..<8 of a `sockaddr_in`, 8..<24 of a `sockaddr_in6`), not its text.
    private static func peer(_ context: some RequestContext) -> IPAddress? {
        switch (context as? any RemoteAddressRequestContext)?.remoteAddress {
        case .v4(let address): withUnsafeBytes(of: address.address) { IPAddress(normalizing: Array($0[4..<8])) }
        case .v6(let address): withUnsafeBytes(of: address.address) { IPAddress(normalizing: Array($0[8..<24])) }
        case .unixDomainSocket, nil: nil
        }
    }

    /// The client's full address (not a /64 for IPv6) in text, as audit events and the access log keep it;
    /// `nil` when the peer is unknown.
    func client(_ request: Request, context: some RequestContext) -> String? {
        address(request, context: context)?.description
    }
}
