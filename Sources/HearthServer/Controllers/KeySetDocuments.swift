import HearthTokens
import NIOCore
import Synchronization

/// The two key-set documents (`jwks.json` and Google's `x509` map) as the bytes last served, made again only when
/// the published keys change (a rotation, a key expiring): every verifier fetches them, and they change about once a
/// week.
final class KeySetDocuments: Sendable {
    private struct Encoded: Sendable {
        var set: PublicKeySet
        var jwks: ByteBuffer
        var x509: ByteBuffer
    }

    private let encoded = Mutex<Encoded?>(nil)

    /// The documents of `set`: the cached bytes when `set` is the one they were made from.
    func documents(of set: PublicKeySet) -> (jwks: ByteBuffer, x509: ByteBuffer) {
        if let cached = encoded.withLock({ $0 }), cached.set == set { return (cached.jwks, cached.x509) }
        let fresh = Encoded(set: set, jwks: WireCoding.bytes(of: JWKSDocument(keys: set.keys)), x509: WireCoding.bytes(of: set.certificates))
        encoded.withLock { $0 = fresh }
        return (fresh.jwks, fresh.x509)
    }

    private struct JWKSDocument: Encodable {
        let keys: [PublicKeySet.JWK]
    }
}
