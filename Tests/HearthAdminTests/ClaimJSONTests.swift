import Foundation
import Testing

@testable import HearthAdmin

/// The JSON reader of token headers and payloads: the same values as `JSONDecoder`, and strict refusals.
@Suite("HearthAdmin: reading token JSON")
struct ClaimJSONTests {
    @Test(arguments: [
        #"{}"#,
        #" { "a" : 1 , "b" : [ ] , "c" : { } } "#,
        #"{"iss":"https://securetoken.google.com/demo-hearth","aud":"demo-hearth","auth_time":1767225600,"iat":1767225600.5,"exp":-1.5e3,"email_verified":false,"x":true,"n":null}"#,
        #"{"firebase":{"identities":{"email":["a@example.com"],"google.com":["123"]},"sign_in_provider":"password"},"deep":[[1,[2,{"k":[0]}]]]}"#,
        #"{"esc":"\"\\\/\b\f\n\r\t","u":"\u00e9\u20AC\ud83d\ude00","raw":"é€😀","zero":0,"neg":-0.0,"exp":1E+2,"small":2e-3}"#,
    ])
    func readsWhatJSONDecoderReads(_ text: String) throws {
        let expected = try JSONDecoder().decode([String: ClaimValue].self, from: Data(text.utf8))
        #expect(ClaimJSON.object(Array(text.utf8)) == expected)
    }

    @Test(arguments: [
        "", " ", "[]", #""a""#, "1", "null", "{", "}", #"{"a"}"#, #"{"a":}"#, #"{"a":1,}"#, #"{"a":1}x"#, #"{"a":1}{}"#,
        #"{a:1}"#, #"{'a':1}"#, #"{"a":[1,]}"#, #"{"a":01}"#, #"{"a":1.}"#, #"{"a":.5}"#, #"{"a":+1}"#, #"{"a":1e}"#,
        #"{"a":1e400}"#, #"{"a":NaN}"#, #"{"a":tru}"#, #"{"a":nul}"#, #"{"a":"\x"}"#, #"{"a":"\u12"}"#,
        #"{"a":"\ud83d"}"#, #"{"a":"\ude00"}"#, #"{"a":"\ud83d\u0041"}"#, "{\"a\":\"line\nbreak\"}", "{\"a\":\"nul\u{0}\"}",
        #"{"a":1,"a":2}"#, #"{"a":"unterminated}"#,
    ])
    func refusesMalformedJSON(_ text: String) {
        #expect(ClaimJSON.object(Array(text.utf8)) == nil)
    }

    @Test func refusesInvalidUTF8AndDeepNesting() {
        #expect(ClaimJSON.object(Array(#"{"a":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)) == nil)
        #expect(ClaimJSON.object(Array(#"{"a":"\n"#.utf8) + [0xFF] + Array(#""}"#.utf8)) == nil)
        let nested = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        #expect(ClaimJSON.object(Array(#"{"a":\#(nested)}"#.utf8)) == nil)
        let shallow = String(repeating: "[", count: 20) + String(repeating: "]", count: 20)
        #expect(ClaimJSON.object(Array(#"{"a":\#(shallow)}"#.utf8)) != nil)
    }
}
