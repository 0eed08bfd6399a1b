import HearthCore
import Testing

/// New accounts' uids: 28 characters of `A–Z a–z 0–9`, as Firebase's, drawn evenly from system randomness.
struct UserIDTests {
    @Test func twentyEightAlphanumericCharacters() {
        for _ in 0..<1_000 {
            let uid = UserRecord.makeUID()
            #expect(uid.utf8.count == 28)
            #expect(uid.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) })
        }
    }

    @Test func everyCharacterComesUpAboutEvenly() {
        var counts: [Character: Int] = [:]
        var seen = Set<String>()
        for _ in 0..<10_000 {
            let uid = UserRecord.makeUID()
            seen.insert(uid)
            for character in uid { counts[character, default: 0] += 1 }
        }
        #expect(seen.count == 10_000)
        #expect(counts.count == 62)
        // 280,000 characters over 62: about 4,516 each; a skewed mapping (byte % 62 over all 256 bytes) would give
        // the first 8 characters about 5,460.
        #expect(counts.values.allSatisfy { (4_150...4_900).contains($0) })
    }
}
