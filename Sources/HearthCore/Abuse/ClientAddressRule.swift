/// Which address a request is from: the connected peer, or — when the peer is a trusted proxy — the right-most
/// address in `X-Forwarded-For` that is not itself a trusted proxy. Addresses a client writes into the header are
/// never believed unless every hop after them is trusted, so a client cannot pick its own address.
public struct ClientAddressRule: Sendable {
    public let trustedProxies: [IPAddressRange]

    public init(trustedProxies: [IPAddressRange]) {
        self.trustedProxies = trustedProxies
    }

    public func isTrusted(_ address: IPAddress) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }

    /// The client's address for a peer `peer` (text form) and the `X-Forwarded-For` lines `forwardedFor`, in order;
    /// `nil` when the peer is unknown.
    public func client(peer: String?, forwardedFor: [String]) -> IPAddress? {
        client(peerAddress: peer.flatMap { IPAddress($0) }, forwardedFor: forwardedFor)
    }

    /// ``client(peer:forwardedFor:)`` of a peer already read as an address.
    public func client(peerAddress: IPAddress?, forwardedFor: [String]) -> IPAddress? {
        guard let peerAddress else { return nil }
        guard isTrusted(peerAddress) else { return peerAddress }
        // Every line split at commas: the right-most entry was added last.
        var client = peerAddress
        for hop in forwardedFor.flatMap({ $0.split(separator: ",") }).reversed() {
            guard let address = IPAddress(hop) else { break }
            client = address
            if !isTrusted(address) { break }
        }
        return client
    }
}
