import Foundation
import HearthWire
import Testing

/// The one pass over a request body before it is decoded: duplicate keys (refused), and whether any key needs the
/// snake_case conversion.
struct DuplicateKeyScannerTests {
    private func scan(_ json: String) -> DuplicateKeyScanner.Scan { DuplicateKeyScanner.scan(Data(json.utf8)) }

    @Test func duplicatesAreFoundAfterUnescaping() {
        #expect(scan(#"{"a":1,"a":2}"#).duplicate == "a")
        #expect(scan(#"{"a":1,"\u0061":2}"#).duplicate == "a")
        #expect(scan(#"{"x":{"b":1,"b":2}}"#).duplicate == "b")
        #expect(scan(#"{"a":1,"x":{"a":2}}"#).duplicate == nil)
        #expect(scan(#"{"a":[{"k":1},{"k":2}]}"#).duplicate == nil)
    }

    @Test func valuesThatLookLikeKeysAreSkipped() {
        // A value holding quotes, braces, colons and commas does not open objects or name keys.
        let tricky = scan(#"{"a":"\"a\":1,{\"a\":2}","b":"}\\"}"#)
        #expect(tricky.duplicate == nil && !tricky.hasUnderscoredKey)
        #expect(scan(#"{"a":"x","b":"\\","a":"y"}"#).duplicate == "a")
    }

    @Test func underscoresCountInKeysOnly() {
        #expect(!scan(#"{"idToken":"abc_def.ghi_jkl","returnSecureToken":true}"#).hasUnderscoredKey)
        #expect(scan(#"{"grant_type":"refresh_token"}"#).hasUnderscoredKey)
        #expect(scan(#"{"x":{"refresh_token":"t"}}"#).hasUnderscoredKey)
        #expect(scan(#"{"grant\u005ftype":"refresh_token"}"#).hasUnderscoredKey)
    }
}
