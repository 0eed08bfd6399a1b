import HTTPTypes
import HearthCore
import Hummingbird

/// Finds the client's address: the connected peer, or — when the peer is a trusted proxy — the
/// right-most address in `X-Forwarded-For` that is not itself a trusted proxy. Addresses a client
/// writes into the header are never believed unless every hop after them is trusted, so a client
/// cannot pick its own address.
struct ClientAddressResolver: Sendable {
    let trustedProxies: [IPAddressRange]

    static let forwardedFor = HTTPField.Name("x-forwarded-for")!
    /// The key of requests whose peer is unknown (the in-process test router has no socket).
    static let unknown = "unknown"

    func isTrusted(_ address: IPAddress) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }

    /// The client address of a request whose peer is `peer` (text form), as a counter key
    /// (``IPAddress/limitKey``: IPv6 clients count per /64).
    func resolve(peer: String?, headers: HTTPFields) -> String {
        address(peer: peer, headers: headers)?.limitKey ?? Self.unknown
    }

    /// The client's address itself; `nil` when the peer is unknown.
    func address(peer: String?, headers: HTTPFields) -> IPAddress? {
        guard let peerText = peer, let peerAddress = IPAddress(peerText) else { return nil }
        guard isTrusted(peerAddress) else { return peerAddress }
        // Every X-Forwarded-For line, in order, split at commas: the right-most entry was added last.
        let hops = headers[values: Self.forwardedFor].flatMap { $0.split(separator: ",") }
        var client = peerAddress
        for hop in hops.reversed() {
            guard let address = IPAddress(hop) else { break }
            client = address
            if !isTrusted(address) { break }
        }
        return client
    }

    func resolve(_ request: Request, context: some RequestContext) -> String {
        address(request, context: context)?.limitKey ?? Self.unknown
    }

    func address(_ request: Request, context: some RequestContext) -> IPAddress? {
        RequestRecord.clientAddress { address(peer: Self.peer(context), headers: request.headers) }
    }

    private static func peer(_ context: some RequestContext) -> String? {
        (context as? any RemoteAddressRequestContext)?.remoteAddress?.ipAddress
    }

    /// The client's full address (not a /64 for IPv6) in text, as audit events and the access log keep it;
    /// `nil` when the peer is unknown.
    func client(_ request: Request, context: some RequestContext) -> String? {
        address(request, context: context)?.description
    }
}
