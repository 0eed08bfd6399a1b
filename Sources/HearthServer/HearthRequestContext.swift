import Hummingbird
import NIOCore

/// The request context of Hearth's router: Hummingbird's basic context plus the peer's address, which
/// the abuse limits key on (see ``ClientAddressResolver``).
public struct HearthRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connected peer (a proxy's address when a proxy is in front); `nil` in the in-process test router.
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
