import Crypto
import Foundation
import HearthBase64URL

/// What a platform authenticator does, for the passkey scenario: an ES256 key per account, a registration with
/// attestation `none` and an assertion per sign-in, written here from WebAuthn Level 3 and RFC 8949 (the load client
/// is the second party, not the server's HearthWebAuthn). The counter stays 0, as synced passkeys keep it, so that
/// one account's sign-ins may run in any order.
struct PasskeyClient: Sendable {
    let key = P256.Signing.PrivateKey()
    let credentialID: [UInt8] = (0..<16).map { _ in UInt8.random(in: .min ... .max) }
    /// The page's origin (development mode takes any port of `http://localhost`).
    let origin: String
    static let rpID = "localhost"

    /// `PublicKeyCredential.toJSON()` of a registration answering `challenge`.
    func registration(challenge: String) -> String {
        let point = key.publicKey.rawRepresentation
        let coseKey = CBOR.map([
            (.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)), (.int(-2), .bytes(Array(point.prefix(32)))),
            (.int(-3), .bytes(Array(point.suffix(32)))),
        ])
        let attested = [UInt8](repeating: 0, count: 16) + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xff)] + credentialID
        let authData = Self.authenticatorData(flags: 0x45) + attested + coseKey.encoded  // UP, UV, AT
        let attestation = CBOR.map([(.text("fmt"), .text("none")), (.text("attStmt"), .map([])), (.text("authData"), .bytes(authData))])
        let clientData = clientDataJSON(type: "webauthn.create", challenge: challenge)
        let id = Base64URL.encode(credentialID)
        return
            #"{"id":"\#(id)","rawId":"\#(id)","type":"public-key","response":{"clientDataJSON":"\#(Base64URL.encode(clientData))","attestationObject":"\#(Base64URL.encode(attestation.encoded))","transports":["internal"]}}"#
    }

    /// `PublicKeyCredential.toJSON()` of an assertion answering `challenge`, with the user handle of the registration.
    func assertion(challenge: String, userHandle: String) throws -> String {
        let authData = Self.authenticatorData(flags: 0x05)  // UP, UV
        let clientData = clientDataJSON(type: "webauthn.get", challenge: challenge)
        let signature = try key.signature(for: authData + Array(SHA256.hash(data: clientData))).derRepresentation
        let id = Base64URL.encode(credentialID)
        return
            #"{"id":"\#(id)","rawId":"\#(id)","type":"public-key","response":{"clientDataJSON":"\#(Base64URL.encode(clientData))","authenticatorData":"\#(Base64URL.encode(authData))","signature":"\#(Base64URL.encode(signature))","userHandle":"\#(userHandle)"}}"#
    }

    private func clientDataJSON(type: String, challenge: String) -> [UInt8] {
        Array(#"{"type":"\#(type)","challenge":"\#(challenge)","origin":"\#(origin)","crossOrigin":false}"#.utf8)
    }

    /// The RP ID's hash, `flags` and a zero counter.
    private static func authenticatorData(flags: UInt8) -> [UInt8] {
        Array(SHA256.hash(data: Array(rpID.utf8))) + [flags, 0, 0, 0, 0]
    }

    /// The few CBOR items a registration holds (RFC 8949, shortest forms).
    indirect enum CBOR {
        case int(Int)
        case bytes([UInt8])
        case text(String)
        case map([(CBOR, CBOR)])

        var encoded: [UInt8] {
            switch self {
            case .int(let value) where value >= 0: Self.head(0, UInt64(value))
            case .int(let value): Self.head(1, UInt64(-1 - value))
            case .bytes(let bytes): Self.head(2, UInt64(bytes.count)) + bytes
            case .text(let text): Self.head(3, UInt64(text.utf8.count)) + Array(text.utf8)
            case .map(let pairs): Self.head(5, UInt64(pairs.count)) + pairs.flatMap { $0.0.encoded + $0.1.encoded }
            }
        }

        private static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
            let type = major << 5
            switch argument {
            case 0..<24: return [type | UInt8(argument)]
            case 24..<256: return [type | 24, UInt8(argument)]
            default: return [type | 25, UInt8(argument >> 8), UInt8(argument & 0xff)]
            }
        }
    }
}
