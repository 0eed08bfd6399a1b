import Foundation
import Testing

@testable import HearthSAML

/// SAML's `xs:dateTime`s: IdPs write fractions and, rarely, offsets; a time without a zone is refused.
@Suite("SAML times")
struct SAMLDateTimeTests {
    @Test("read with fractions and offsets, written in whole UTC seconds")
    func times() {
        let base = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(SAMLDateTime.string(from: base) == "2027-01-15T08:00:00Z")
        #expect(SAMLDateTime.date(from: "2027-01-15T08:00:00Z") == base)
        #expect(SAMLDateTime.date(from: "2027-01-15T08:00:00.250Z") == base.addingTimeInterval(0.25))
        #expect(SAMLDateTime.date(from: "2027-01-15T09:30:00+01:30") == base)
        #expect(SAMLDateTime.date(from: "2027-01-15T06:00:00-02:00") == base)
        for bad in ["2027-01-15T08:00:00", "2027-01-15 08:00:00Z", "2027-13-15T08:00:00Z", "2027-01-15T08:00:00.Z", "", "2027-01-15T08:00:00Zjunk"] {
            #expect(SAMLDateTime.date(from: bad) == nil, "\(bad)")
        }
    }
}
