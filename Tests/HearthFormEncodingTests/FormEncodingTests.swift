import HearthFormEncoding
import Testing

@Suite("Form encoding")
struct FormEncodingTests {
    @Test("percent-encoding leaves only the unreserved characters, upper-case hex, a space as %20")
    func percentEncode() {
        #expect(FormEncoding.percentEncode("Ladies + Gentlemen") == "Ladies%20%2B%20Gentlemen")
        #expect(FormEncoding.percentEncode("An encoded string!") == "An%20encoded%20string%21")
        #expect(FormEncoding.percentEncode("Dogs, Cats & Mice") == "Dogs%2C%20Cats%20%26%20Mice")
        #expect(FormEncoding.percentEncode("☃") == "%E2%98%83")
        #expect(FormEncoding.percentEncode("a-b._~Z09") == "a-b._~Z09")
    }

    @Test("decoding reads + as a space and refuses a malformed escape or invalid UTF-8")
    func percentDecode() {
        #expect(FormEncoding.percentDecode("a+b%20c%2B") == "a b c+")
        #expect(FormEncoding.percentDecode("a+b", plusIsSpace: false) == "a+b")
        #expect(FormEncoding.percentDecode("%E2%98%83") == "☃")
        #expect(FormEncoding.percentDecode("%zz") == nil)
        #expect(FormEncoding.percentDecode("%4") == nil)
        #expect(FormEncoding.percentDecode("%FF") == nil)
        #expect(FormEncoding.decodeLeniently("100%") == "100%")
    }

    @Test("pairs keep order and repeats; strict reading fails as a whole, lenient keeps what it cannot decode")
    func pairs() throws {
        let pairs = try #require(FormEncoding.pairs("a=1&b=&c&a=2&&d=x%3Dy"))
        #expect(pairs.map(\.name) == ["a", "b", "c", "a", "d"])
        #expect(pairs.map(\.value) == ["1", "", "", "2", "x=y"])
        #expect(FormEncoding.pairs("a=%zz") == nil)
        let lenient = FormEncoding.lenientPairs("a=%zz&=skipped&b=2")
        #expect(lenient.map(\.name) == ["a", "b"])
        #expect(lenient.map(\.value) == ["%zz", "2"])
    }

    @Test("a repeated name: the first wins, or the form is refused")
    func repeats() throws {
        let pairs = try #require(FormEncoding.pairs("a=1&a=2"))
        #expect(FormEncoding.firstValues(pairs) == ["a": "1"])
        #expect(FormEncoding.uniqueValues(pairs) == nil)
        #expect(FormEncoding.dictionary("a=1&b=2") == ["a": "1", "b": "2"])
        #expect(FormEncoding.dictionary("a=%zz") == [:])
    }

    @Test("encoding and decoding round-trip")
    func roundTrip() throws {
        let original = [("redirect_uri", "https://example.com/cb?x=1&y=2"), ("state", "ä ö+/")]
        let decoded = try #require(FormEncoding.pairs(FormEncoding.encode(original)))
        #expect(decoded.map(\.name) == original.map(\.0))
        #expect(decoded.map(\.value) == original.map(\.1))
    }
}
