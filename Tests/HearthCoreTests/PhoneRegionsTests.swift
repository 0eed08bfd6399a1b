import Foundation
import HearthCore
import Testing

/// Phone numbers' regions and lengths, checked against libphonenumber (the Python `phonenumbers` package, an
/// implementation of its own): its example numbers for every region, written by scripts/generate-phone-regions.py.
@Suite struct PhoneRegionsTests {
    struct Examples: Decodable {
        let phonenumbers: String
        let examples: [String: [String]]
        let premiumRate: [String: String]
    }

    @Test("libphonenumber's example numbers of every region map to that region")
    func examplesOfEveryRegion() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/phone-region-examples.json")
        let fixture = try JSONDecoder().decode(Examples.self, from: Data(contentsOf: url))
        #expect(fixture.examples.count > 200)
        var wrong: [String] = []
        for (region, numbers) in fixture.examples {
            for number in numbers where PhoneRegions.region(of: number) != region {
                wrong.append("\(number): \(PhoneRegions.region(of: number) ?? "none"), not \(region)")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.sorted().joined(separator: "; "))")
    }

    @Test("libphonenumber's premium-rate example of every region that has one is premium-rate; no mobile or fixed example is")
    func premiumRateExamples() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/phone-region-examples.json")
        let fixture = try JSONDecoder().decode(Examples.self, from: Data(contentsOf: url))
        #expect(fixture.premiumRate.count > 100)
        let missed = fixture.premiumRate.filter { !PhoneRegions.isPremiumRate($0.value) }
        #expect(missed.isEmpty, "\(missed.sorted { $0.key < $1.key })")
        let wronglyPremium = fixture.examples.values.flatMap { $0 }.filter(PhoneRegions.isPremiumRate)
        #expect(wronglyPremium.isEmpty, "\(wronglyPremium.sorted())")
        #expect(PhoneRegions.isPremiumRate("+979123456789") && !PhoneRegions.isPremiumRate("+919876543210"))
    }

    @Test("the seeds' readers' countries and the shared codes; impossible lengths and unknown codes have no region")
    func knownNumbers() {
        let cases: [(String, String?)] = [
            ("+919876543210", "IN"), ("+8801712345678", "BD"), ("+6281234567890", "ID"), ("+14165550123", "CA"),
            ("+12125550123", "US"), ("+18765550123", "JM"), ("+441481256789", "GG"), ("+447911123456", "GG"),
            ("+442071234567", "GB"), ("+77012345678", "KZ"), ("+79123456789", "RU"), ("+80012345678", "001"),
            ("+9198765", nil), ("+91987654321012345", nil), ("+999123456", nil), ("+2", nil),
        ]
        for (number, region) in cases {
            #expect(PhoneRegions.region(of: number) == region, "\(number)")
        }
    }

    @Test("an SMS region policy: a deny list, an allow list, and region codes that are not two capital letters")
    func policies() throws {
        let deny = SMSRegionPolicy.allowByDefault(disallowedRegions: ["IN"])
        #expect(!deny.allows(region: "IN") && deny.allows(region: "BD"))
        let allow = SMSRegionPolicy.allowlistOnly(allowedRegions: ["BD", "ID"])
        #expect(allow.allows(region: "ID") && !allow.allows(region: "US"))
        #expect(SMSRegionPolicy.allowAll.allows(region: "001"))
        for bad in ["in", "IND", "I\u{0}", ""] {
            #expect(throws: HearthError.self) { try SMSRegionPolicy.checked(.allowlistOnly(allowedRegions: [bad])) }
        }
        #expect(throws: HearthError.self) {
            try SMSRegionPolicy.checked(.allowByDefault(disallowedRegions: Set((0..<400).map { "A\(UnicodeScalar(65 + $0 % 26)!)\($0)" })))
        }
    }
}
