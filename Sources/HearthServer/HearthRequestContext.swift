import Hummingbird
import NIOCore

/// The request context of Hearth's router: Hummingbird's basic context plus the peer's address, which
/// the abuse limits key on (see ``ClientAddressResolver``), and who the caller is (see ``Caller``).
public struct HearthRequestContext: CallerRequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connected peer (a proxy's address when a proxy is in front); `nil` in the in-process test router.
    public let remoteAddress: SocketAddress?
    /// An app's until a middleware has seen an administrator's credential.
    public var caller: Caller = .app
    public var administratorCredential: String?
    public var administratorTenant: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
