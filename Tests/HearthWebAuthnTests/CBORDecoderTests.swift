import HearthWebAuthn
import Testing

/// The decoder's limits, each broken by a hand-made byte string.
@Suite struct CBORDecoderTests {
    let decoder = CBORDecoder()

    func refusal(_ bytes: [UInt8], decoder: CBORDecoder = CBORDecoder()) -> CBORError? {
        do {
            _ = try decoder.decode(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func decodesWhatWebAuthnUses() throws {
        // {1: 2, 3: -7, -1: h'0102', "fmt": "none", "a": [true, false, null]}
        let bytes: [UInt8] = [
            0xA5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x42, 0x01, 0x02, 0x63, 0x66, 0x6D, 0x74, 0x64, 0x6E, 0x6F, 0x6E, 0x65,
            0x61, 0x61, 0x83, 0xF5, 0xF4, 0xF6,
        ]
        let value = try decoder.decode(bytes)
        #expect(value[1]?.integer == 2)
        #expect(value[3]?.integer == -7)
        #expect(value[-1]?.bytes == [1, 2])
        #expect(value["fmt"]?.text == "none")
        #expect(value["a"] == .array([.bool(true), .bool(false), .null]))
        #expect(try decoder.decode([0x39, 0x01, 0x00]).integer == -257)
        #expect(try decoder.decode([0x1B, 0, 0, 0, 1, 0, 0, 0, 0]) == .unsigned(1 << 32))
    }

    @Test func refusesTrailingBytes() {
        #expect(refusal([0x01, 0x02]) == .trailingBytes)
        #expect(CBORError.trailingBytes.description == "CBOR has bytes after its data item")
    }

    @Test func refusesTruncatedItems() {
        #expect(refusal([0x19, 0x01]) == .truncated)
        #expect(refusal([0x43, 0x01, 0x02]) == .truncated)
        #expect(refusal([0xA1, 0x01]) == .truncated)
        #expect(refusal([]) == .truncated)
        // A length far beyond the input is refused before anything is allocated.
        #expect(refusal([0x5B, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) == .truncated)
        #expect(refusal([0x9B, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) == .truncated)
        #expect(CBORError.truncated.description == "CBOR ends inside a data item")
    }

    @Test func refusesIndefiniteLengths() {
        #expect(refusal([0x5F, 0x41, 0x00, 0xFF]) == .indefiniteLength)
        #expect(refusal([0x9F, 0x01, 0xFF]) == .indefiniteLength)
        #expect(refusal([0xBF, 0x01, 0x02, 0xFF]) == .indefiniteLength)
        #expect(refusal([0x7F, 0x61, 0x61, 0xFF]) == .indefiniteLength)
        #expect(refusal([0xFF]) == .indefiniteLength)
        #expect(CBORError.indefiniteLength.description == "CBOR indefinite lengths are not accepted")
    }

    @Test func refusesLongerFormsThanNeeded() {
        #expect(refusal([0x18, 0x17]) == .notShortestForm)
        #expect(refusal([0x19, 0x00, 0xFF]) == .notShortestForm)
        #expect(refusal([0x1A, 0x00, 0x00, 0xFF, 0xFF]) == .notShortestForm)
        #expect(refusal([0x1B, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]) == .notShortestForm)
        #expect(refusal([0x58, 0x01, 0x00]) == .notShortestForm)
        #expect(refusal([0x1C]) == .malformed)
        #expect(CBORError.notShortestForm.description == "CBOR integer or length not in its shortest form")
    }

    @Test func refusesDuplicateMapKeys() {
        #expect(refusal([0xA2, 0x01, 0x02, 0x01, 0x03]) == .duplicateMapKey)
        #expect(refusal([0xA2, 0x61, 0x61, 0x01, 0x61, 0x61, 0x02]) == .duplicateMapKey)
        #expect(CBORError.duplicateMapKey.description == "CBOR map has a key twice")
    }

    @Test func refusesMapKeysOtherThanIntegersAndText() {
        #expect(refusal([0xA1, 0x41, 0x00, 0x01]) == .unsupportedMapKey)
        #expect(refusal([0xA1, 0x80, 0x01]) == .unsupportedMapKey)
        #expect(CBORError.unsupportedMapKey.description == "CBOR map key is neither an integer nor text")
    }

    @Test func refusesTagsFloatsAndOtherSimpleValues() {
        #expect(refusal([0xC2, 0x41, 0x01]) == .unsupportedType)
        #expect(refusal([0xF9, 0x3C, 0x00]) == .unsupportedType)
        #expect(refusal([0xFB, 0, 0, 0, 0, 0, 0, 0, 0]) == .unsupportedType)
        #expect(refusal([0xF7]) == .unsupportedType)
        #expect(refusal([0xF8, 0x20]) == .unsupportedType)
        #expect(
            CBORError.unsupportedType.description
                == "CBOR tags, floats and simple values other than true, false and null are not accepted")
    }

    @Test func refusesTextThatIsNotUTF8() {
        #expect(refusal([0x62, 0xC3, 0x28]) == .invalidText)
        #expect(refusal([0x61, 0xFF]) == .invalidText)
        #expect(CBORError.invalidText.description == "CBOR text string is not UTF-8")
    }

    @Test func refusesNestingBeyondTheLimit() {
        #expect(refusal([0x81, 0x81, 0x81, 0x81, 0x00]) == nil)
        #expect(refusal([0x81, 0x81, 0x81, 0x81, 0x81, 0x00]) == .tooDeep)
        #expect(refusal(Array(repeating: 0x81, count: 100_000) + [0x00], decoder: CBORDecoder(maximumSize: 200_000)) == .tooDeep)
        #expect(CBORError.tooDeep.description == "CBOR nests too deeply")
    }

    @Test func refusesInputBeyondTheSizeAndItemLimits() {
        #expect(refusal([0x59, 0x01, 0x00] + Array(repeating: 0, count: 256), decoder: CBORDecoder(maximumSize: 200)) == .tooLarge)
        #expect(refusal([0x99, 0x02, 0x00] + Array(repeating: 0, count: 512)) == .tooManyItems)
        #expect(CBORError.tooLarge.description == "CBOR input is too large")
        #expect(CBORError.tooManyItems.description == "CBOR input has too many items")
    }
}
