import Foundation
import HearthConfiguration
import HummingbirdCore
import Logging
import NIOCore
import NIOSSL
import Synchronization

/// The certificate and key the server speaks HTTPS with (`server.tls.certificateFile`, `server.tls.keyFile`),
/// re-read by ``reload()`` while the server runs: each new connection takes the context in force when it
/// is accepted, connections already open keep theirs, and the listener stays as it is.
///
/// ```swift
/// let tls = try ServerTLS(certificateFile: "/etc/hearth/tls/cert.pem", keyFile: "/etc/hearth/tls/key.pem")
/// let app = buildApplication(services: services, tls: tls)
/// ```
public final class ServerTLS: Sendable {
    public let certificateFile: String
    public let keyFile: String
    private let context: Mutex<NIOSSLContext>

    /// Reads both files.
    /// - Throws: ``ConfigurationError`` naming `server.tls.certificateFile` or `server.tls.keyFile` when a
    ///   file is missing, unreadable, not PEM, or the key is not the certificate's.
    public init(certificateFile: String, keyFile: String) throws {
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        context = Mutex(try Self.load(certificateFile: certificateFile, keyFile: keyFile))
    }

    /// The context new connections get.
    public var current: NIOSSLContext { context.withLock { $0 } }

    /// Reads the files again and, when they make a valid context, gives it to new connections. When they
    /// do not, the context in force stays and the error (a ``ConfigurationError``) is thrown.
    public func reload() throws {
        let fresh = try Self.load(certificateFile: certificateFile, keyFile: keyFile)
        context.withLock { $0 = fresh }
    }

    private static func load(certificateFile: String, keyFile: String) throws -> NIOSSLContext {
        let chainText = try SettingFiles.text(atPath: certificateFile, key: "server.tls.certificateFile")
        let keyText = try SettingFiles.text(atPath: keyFile, key: "server.tls.keyFile")
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMBytes(Array(chainText.utf8))
        } catch {
            chain = []
        }
        guard !chain.isEmpty else {
            throw ConfigurationError(key: "server.tls.certificateFile", problem: "\(certificateFile) holds no PEM certificate (BEGIN CERTIFICATE)")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(bytes: Array(keyText.utf8), format: .pem)
        } catch {
            throw ConfigurationError(
                key: "server.tls.keyFile", problem: "\(keyFile) holds no PEM private key (BEGIN PRIVATE KEY, unencrypted)")
        }
        let configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw ConfigurationError(
                key: "server.tls.keyFile", problem: "\(keyFile) is not the private key of the certificate in \(certificateFile)")
        }
    }
}

/// A child channel that puts TLS, with the context of ``ServerTLS`` in force, in front of `base`.
struct ServerTLSChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let tls: ServerTLS

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls.current))
        }.flatMap {
            base.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Base.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension ServerTLSChannel: HTTPChannelHandler where Base: HTTPChannelHandler {
    var responder: HTTPChannelHandler.Responder { base.responder }
}

extension ServerChildChannel {
    /// This channel behind TLS with `tls`'s context in force.
    public func behind(_ tls: ServerTLS) -> any ServerChildChannel {
        ServerTLSChannel(base: self, tls: tls)
    }
}
