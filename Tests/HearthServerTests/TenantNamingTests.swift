import Foundation
import HearthBase64URL
import HearthCore
import HearthWireMapping
import Testing

/// The tenant a body names, read before the body is decoded for its route: the body's `tenantId` and the ID token's
/// `firebase.tenant`, the latter without the JSON decoder when the payload's bytes cannot hold it.
struct TenantNamingTests {
    private func token(payload: String) -> String {
        "\(Base64URL.encode(Array(#"{"alg":"RS256"}"#.utf8))).\(Base64URL.encode(Array(payload.utf8))).c2lnbmF0dXJl"
    }

    @Test func readsTheTokensTenant() {
        #expect(TenantNaming.tenant(ofToken: token(payload: #"{"sub":"u","firebase":{"tenant":"acme-1"}}"#)) == "acme-1")
        #expect(TenantNaming.tenant(ofToken: token(payload: #"{"sub":"u","firebase":{"sign_in_provider":"anonymous"}}"#)) == nil)
    }

    @Test func anEscapedKeyIsStillRead() {
        // `\u0074enant` is `tenant`: a payload without the plain bytes still goes through the decoder.
        #expect(TenantNaming.tenant(ofToken: token(payload: #"{"firebase":{"\u0074enant":"acme-1"}}"#)) == "acme-1")
    }

    @Test func theWordOutsideAKeyNamesNoTenant() {
        #expect(TenantNaming.tenant(ofToken: token(payload: #"{"name":"\"tenant\"","firebase":{}}"#)) == nil)
        #expect(TenantNaming.tenant(ofToken: token(payload: #"{"tenant":"top-level"}"#)) == nil)
    }

    @Test func malformedTokensNameNoTenant() {
        let good = token(payload: #"{"firebase":{"tenant":"acme-1"}}"#)
        #expect(TenantNaming.tenant(ofToken: good + ".extra") == nil)
        #expect(TenantNaming.tenant(ofToken: good.replacingOccurrences(of: ".c2lnbmF0dXJl", with: "")) == nil)
        #expect(TenantNaming.tenant(ofToken: "") == nil)
        #expect(TenantNaming.tenant(ofToken: "..") == nil)
        #expect(TenantNaming.tenant(ofToken: "a.!!!.b") == nil)
        #expect(TenantNaming.tenant(ofToken: "a.\(String(repeating: "A", count: 16_388)).b") == nil)
        #expect(TenantNaming.tenant(ofToken: "a.\u{0}.b") == nil)
    }

    @Test func bodyAndTokenMustAgree() throws {
        let tokenOfA = token(payload: #"{"firebase":{"tenant":"acme-1"}}"#)
        let agreeing = TenantNaming(json: Data(#"{"idToken":"\#(tokenOfA)","tenantId":"acme-1"}"#.utf8))
        #expect(try agreeing.tenantID() == "acme-1")
        let differing = TenantNaming(json: Data(#"{"idToken":"\#(tokenOfA)","tenantId":"other-2"}"#.utf8))
        let error = #expect(throws: HearthError.self) { try differing.tenantID() }
        #expect(error?.code == .tenantIDMismatch)
        #expect(try TenantNaming(json: Data(#"{"idToken":"\#(tokenOfA)"}"#.utf8)).tenantID() == "acme-1")
        #expect(try TenantNaming(json: Data("not json".utf8)).tenantID() == nil)
    }

    @Test func escapedMemberNamesAreStillRead() throws {
        // Without the plain words the body names nothing, and is not decoded; an escape sends it to the decoder.
        #expect(try TenantNaming(json: Data(#"{"returnSecureToken":true}"#.utf8)).tenantID() == nil)
        #expect(try TenantNaming(json: Data(#"{"tenantId":"acme-1"}"#.utf8)).tenantID() == "acme-1")
        let tokenOfA = token(payload: #"{"firebase":{"tenant":"acme-1"}}"#)
        #expect(try TenantNaming(json: Data(#"{"idToken":"\#(tokenOfA)"}"#.utf8)).tenantID() == "acme-1")
    }
}
