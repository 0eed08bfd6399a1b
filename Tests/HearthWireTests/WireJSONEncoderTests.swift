import Foundation
import Testing

@testable import HearthWire

/// The streaming encoder of responses: whatever it writes must decode to what `JSONEncoder` writes for the same value,
/// and what it cannot stream falls back to `JSONEncoder` whole.
struct WireJSONEncoderTests {
    private func expectSameAsFoundation<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ours = try WireJSONEncoder.encode(value)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let theirs = try encoder.encode(value)
        let parsedOurs = try JSONSerialization.jsonObject(with: Data(ours), options: [.fragmentsAllowed]) as? NSObject
        let parsedTheirs = try JSONSerialization.jsonObject(with: theirs, options: [.fragmentsAllowed]) as? NSObject
        #expect(parsedOurs == parsedTheirs, "\(String(decoding: ours, as: UTF8.self))", sourceLocation: sourceLocation)
    }

    @Test func aFullUserAsLookupAnswersIt() throws {
        var user = UserInfo(localId: "uid-1")
        user.email = "ada@example.com"
        user.emailVerified = true
        user.displayName = "Ada \"the\" <Countess> \\ \n\t\u{1} ✓ 𝄞"
        user.photoUrl = "https://example.com/a/b.png"
        user.passwordHash = "UkVEQUNURUQ="
        user.passwordUpdatedAt = 1_732_000_000_123
        user.validSince = WireInt64(1_732_000_000)
        user.createdAt = WireInt64(1_732_000_000_000)
        user.customAttributes = #"{"role":"admin","n":1.5}"#
        user.providerUserInfo = [ProviderUserInfo(providerId: "password"), ProviderUserInfo(providerId: "google.com")]
        user.mfaInfo = []
        try expectSameAsFoundation(LookupResponse(users: [user, UserInfo(localId: "uid-2")]))
        try expectSameAsFoundation(LookupResponse(users: []))
    }

    @Test func scalarsAtTheTopAndInside() throws {
        try expectSameAsFoundation("a \"quoted\" / slash")
        try expectSameAsFoundation(42)
        try expectSameAsFoundation(true)
        try expectSameAsFoundation([1.0, 0.5, -3.25, 1e21, 123_456_789.0])
        try expectSameAsFoundation(["b": [1, 2], "a": []])
        try expectSameAsFoundation([[String: Int?]]([["x": nil, "y": 2], [:]]))
        try expectSameAsFoundation(Int64.max)
        try expectSameAsFoundation(UInt32(7))
    }

    private struct TwiceAsked: Encodable {
        enum Keys: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var first = encoder.container(keyedBy: Keys.self)
            try first.encode(1, forKey: .a)
            var second = encoder.container(keyedBy: Keys.self)
            try second.encode(2, forKey: .b)
        }
    }

    private struct OutOfOrder: Encodable {
        enum Keys: String, CodingKey { case inner, after, late }
        func encode(to encoder: any Encoder) throws {
            var outer = encoder.container(keyedBy: Keys.self)
            var inner = outer.nestedContainer(keyedBy: Keys.self, forKey: .inner)
            try outer.encode("x", forKey: .after)
            try inner.encode("y", forKey: .late)
        }
    }

    private struct WithSuper: Encodable {
        enum Keys: String, CodingKey { case a }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .a)
            var parent = container.superEncoder().singleValueContainer()
            try parent.encode("p")
        }
    }

    private struct Empty: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    private struct Dated: Encodable {
        var at = Date(timeIntervalSince1970: 1_000)
        var bytes = Data([1, 2, 3])
    }

    @Test func whatCannotStreamFallsBackWhole() throws {
        try expectSameAsFoundation(TwiceAsked())
        try expectSameAsFoundation(OutOfOrder())
        try expectSameAsFoundation(WithSuper())
        try expectSameAsFoundation(Dated())
        try expectSameAsFoundation(["empty": Empty()])
        #expect(throws: (any Error).self) { try WireJSONEncoder.encode([Double.nan]) }
    }

    @Test func fieldsComeInTheirDeclaredOrder() throws {
        let text = String(
            decoding: try WireJSONEncoder.encode(
                SignUpResponse(localId: "u", email: nil, displayName: nil, idToken: "t", refreshToken: nil, expiresIn: nil)), as: UTF8.self)
        #expect(text == #"{"kind":"identitytoolkit#SignupNewUserResponse","localId":"u","idToken":"t"}"#)
    }

    /// The error envelope is written by hand (every failure answers with it): byte for byte what its `Codable`
    /// conformance writes through the containers, escapes and optional fields included.
    @Test func theErrorEnvelopeIsWrittenAsItsContainersWouldWriteIt() throws {
        var located = WireErrorResponse(
            code: 400, message: "INVALID_ARGUMENT : \"x\" \\ \u{0} \n ✓", reason: "badRequest", status: "INVALID_ARGUMENT")
        located.error.errors[0].location = "body/x"
        located.error.errors[0].locationType = "other"
        var two = WireErrorResponse(code: 404, message: "Not Found", reason: "notFound", status: "NOT_FOUND")
        two.error.errors.append(WireErrorResponse.Item(message: "second", reason: "r", domain: "d", location: nil, locationType: "t"))
        var none = WireErrorResponse(code: 500, message: "")
        none.error.errors = []
        for envelope in [WireErrorResponse(code: 400, message: "EMAIL_EXISTS"), located, two, none] {
            let written = try WireJSONEncoder.encode(envelope)
            #expect(written == (try WireJSONEncoder.streamed(envelope)), "\(String(decoding: written, as: UTF8.self))")
            try expectSameAsFoundation(envelope)
            #expect(try JSONDecoder().decode(WireErrorResponse.self, from: Data(written)) == envelope)
        }
        #expect(
            String(decoding: try WireJSONEncoder.encode(WireErrorResponse(code: 400, message: "EMAIL_EXISTS")), as: UTF8.self)
                == #"{"error":{"code":400,"message":"EMAIL_EXISTS","errors":[{"message":"EMAIL_EXISTS","reason":"invalid","domain":"global"}]}}"#)
    }
}
