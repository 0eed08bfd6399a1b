import Foundation
import HearthBase64URL

/// `clientDataJSON` (WebAuthn §5.8.1) as the browser wrote it: the ceremony's type, the challenge, the origin
/// and whether the call came from a cross-origin frame. Read as JSON, with a size limit; a member of the
/// wrong type is refused.
struct CollectedClientData: Decodable {
    let type: String
    let challenge: String
    let origin: String
    let crossOrigin: Bool?

    /// The most bytes a `clientDataJSON` may have (a browser's is a few hundred).
    static let maximumSize = 4096

    /// Checks `json` against the ceremony: its type, the challenge issued (`expectedChallenge`), one of the
    /// relying party's origins, and no cross-origin call.
    static func check(
        _ json: [UInt8],
        type expectedType: String,
        challenge expectedChallenge: [UInt8],
        origins: [String]
    ) throws(WebAuthnError) {
        guard json.count <= maximumSize else { throw .malformedClientData("longer than \(maximumSize) bytes") }
        let data: CollectedClientData
        do { data = try JSONDecoder().decode(CollectedClientData.self, from: Data(json)) } catch {
            throw .malformedClientData("not a JSON object with type, challenge and origin")
        }
        guard data.type == expectedType else { throw .wrongCeremonyType(expected: expectedType, got: data.type) }
        guard let challenge = Base64URL.decode(data.challenge), challenge == expectedChallenge else { throw .challengeMismatch }
        guard origins.contains(where: { matches($0, data.origin) }) else { throw .originNotAllowed(data.origin) }
        guard data.crossOrigin != true else { throw .crossOrigin }
    }

    /// Whether `origin` is the expected origin `expected`, or, for an expected origin ending in `:*`, that scheme and
    /// host on any port (1 to 5 digits).
    static func matches(_ expected: String, _ origin: String) -> Bool {
        guard expected.hasSuffix(":*") else { return expected == origin }
        let stem = expected.dropLast()
        guard origin.hasPrefix(stem) else { return false }
        let port = origin.dropFirst(stem.count)
        return (1...5).contains(port.count) && port.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
