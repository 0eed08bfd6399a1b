import Foundation
import HearthWire
import Testing

/// The request decoder's fast path reads what `JSONDecoder` reads, and gives up on everything else, so that
/// `JSONDecoder` decides (and words) every refusal.
struct FlatJSONDecoderTests {
    /// Every kind of field a request can have.
    struct Sample: Codable, Equatable {
        enum Kind: String, Codable { case one, two }
        var text: String?
        var flag: Bool?
        var count: Int?
        var big: Int64?
        var small: Int32?
        var tiny: Int8?
        var ratio: Double?
        var kind: Kind?
        var list: [String]?
        var nested: [String: String]?
        var required: String
    }

    /// `body` through both decoders: the fast one gives `JSONDecoder`'s value, or nothing.
    private func check<T: Decodable & Equatable>(_ body: String, as type: T.Type, fast: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        check(Data(body.utf8), as: type, fast: fast, sourceLocation: sourceLocation)
    }

    private func check<T: Decodable & Equatable>(_ data: Data, as type: T.Type, fast: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        let reference = try? JSONDecoder().decode(T.self, from: data)
        let flat = FlatJSONDecoder.decode(T.self, from: data)
        if let flat {
            #expect(flat == reference, "\(String(decoding: data, as: UTF8.self))", sourceLocation: sourceLocation)
        } else {
            #expect(!fast, "not read: \(String(decoding: data, as: UTF8.self))", sourceLocation: sourceLocation)
        }
        if fast { #expect(flat != nil, "\(String(decoding: data, as: UTF8.self))", sourceLocation: sourceLocation) }
    }

    @Test("the hot requests are read, as JSONDecoder reads them")
    func hotRequests() {
        check(#"{"idToken":"eyJhbGciOiJSUzI1NiJ9.e30.c2ln"}"#, as: LookupRequest.self, fast: true)
        check(#" { "idToken" : null , "tenantId" : "t-1" } "#, as: LookupRequest.self, fast: true)
        check("{}", as: LookupRequest.self, fast: true)
        check(#"{"returnSecureToken":true}"#, as: SignUpRequest.self, fast: true)
        check(
            #"{"email":"ada@example.com","password":"pä$$wörd 😀","returnSecureToken":true,"displayName":"Ada","unknown":12.5}"#,
            as: SignUpRequest.self, fast: true)
        check(
            #"{"required":"r","text":"x","flag":false,"count":-42,"big":9007199254740993,"small":7,"ratio":1.5e-3,"kind":"two"}"#, as: Sample.self,
            fast: true)
        check(#"{"required":"r","count":0,"ratio":-0,"big":-9223372036854775808}"#, as: Sample.self, fast: true)
    }

    @Test("what the fast path does not read goes to JSONDecoder: escapes, arrays, objects, other types, limits")
    func givesUp() {
        for body in [
            #"{"required":"a\"b"}"#, #"{"required":"\u0041"}"#, #"{"required":"r","list":["a"]}"#, #"{"required":"r","nested":{"a":"b"}}"#,
            #"{"required":"r","tiny":1}"#, #"{"required":"r","count":1.0}"#, #"{"required":"r","count":1e2}"#,
            #"{"required":"r","count":9223372036854775808}"#, #"{"required":"r","small":2147483648}"#,
            #"{"required":"r","ratio":1e400}"#, #"{"required":"r","kind":"three"}"#, #"{"required":"r","flag":"true"}"#,
            #"{"required":"r","text":1}"#, #"{"required":"r","count":"1"}"#, #"{"required":null}"#, #"{"text":"no required"}"#,
        ] {
            check(body, as: Sample.self, fast: false)
        }
        // One that is read after all: an integer for a Double.
        #expect(FlatJSONDecoder.decode(Sample.self, from: Data(#"{"required":"r","ratio":1}"#.utf8))?.ratio == 1)
    }

    @Test("snake_case keys, when asked for, read as JSONDecoder's .convertFromSnakeCase reads them; odd ones go to it")
    func snakeCase() {
        let snake = JSONDecoder()
        snake.keyDecodingStrategy = .convertFromSnakeCase
        func check<T: Decodable & Equatable>(_ body: String, as type: T.Type, fast: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
            let data = Data(body.utf8)
            let flat = FlatJSONDecoder.decode(T.self, from: data, convertingSnakeCase: true)
            if let flat { #expect(flat == (try? snake.decode(T.self, from: data)), "\(body)", sourceLocation: sourceLocation) }
            #expect((flat != nil) == fast, "\(body)", sourceLocation: sourceLocation)
        }
        check(#"{"grant_type":"refresh_token","refresh_token":"AMf-vB.x"}"#, as: TokenRequest.self, fast: true)
        check(#"{"grantType":"refresh_token","refresh_token":"r"}"#, as: TokenRequest.self, fast: true)
        check(#"{"return_secure_token":true,"email":"a@b.c"}"#, as: SignUpRequest.self, fast: true)
        for body in [
            #"{"_grant_type":"g"}"#, #"{"grant_type_":"g"}"#, #"{"grant__type":"g"}"#, #"{"Grant_type":"g"}"#, #"{"grant_Type":"g"}"#,
            #"{"grant_type2":"g"}"#, #"{"grant_typé":"g"}"#, #"{"grant_type":"a","grantType":"b"}"#, #"{"_":"g"}"#,
        ] {
            check(body, as: TokenRequest.self, fast: false)
        }
        // Not asked for, an underscore still gives up.
        #expect(FlatJSONDecoder.decode(TokenRequest.self, from: Data(#"{"grant_type":"g"}"#.utf8)) == nil)
    }

    @Test("malformed JSON is never read: JSONDecoder refuses it and says why")
    func malformed() {
        for body in [
            "", " ", "[]", "null", "{", "}", #"{"a"}"#, #"{"a":}"#, #"{"required":"r",}"#, #"{"required":"r"}x"#, #"{"required":"r"}{}"#,
            #"{required:"r"}"#, #"{'required':'r'}"#, #"{"required":"r","count":01}"#, #"{"required":"r","count":+1}"#,
            #"{"required":"r","count":.5}"#, #"{"required":"r","count":1.}"#, #"{"required":"r","count":1e}"#, #"{"required":"r","count":-}"#,
            #"{"required":"r","flag":tru}"#, #"{"required":"r","flag":nul}"#, #"{"required":"r","count":NaN}"#,
            "{\"required\":\"a\u{01}b\"}", "{\"required\":\"a\u{0}b\"}", "{\"required\":\"r\"\u{0B}}", #"{"required":"unterminated}"#,
            #"{"required":"r","required":"s"}"#, #"{"required":"r","snake_case":1}"#,
        ] {
            check(body, as: Sample.self, fast: false)
        }
        // Bytes that are not UTF-8, in a key and in a value.
        check(Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]), as: Sample.self, fast: false)
        check(Data(#"{"required":""#.utf8) + Data([0xC3, 0x28]) + Data(#""}"#.utf8), as: Sample.self, fast: false)
        check(Data(#"{"required":""#.utf8) + Data([0xED, 0xA0, 0x80]) + Data(#""}"#.utf8), as: Sample.self, fast: false)
    }
}
