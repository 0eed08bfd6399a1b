import CProcessMemory
import CryptoExtras
import Foundation
import Testing

/// `hearth serve` caps glibc's arenas at start and gives back what its start-up freed; the C part must reach glibc (a
/// stub answers 0 elsewhere).
struct ProcessMemoryTests {
    @Test func theAllocatorIsTunedOnGlibc() {
        #if os(Linux)
        #expect(hearth_tune_allocator(2) == 1)
        let freed = [UInt8](repeating: 1, count: 8 << 20)
        #expect(freed.count == 8 << 20)
        _ = hearth_release_free_memory()
        #endif
    }

    /// What `hearth serve` does once it listens: the executable's code leaves the memory map, and whatever runs next
    /// is mapped again from the page cache.
    @Test func theExecutablesCodeIsDroppedFromTheMemoryMapAndComesBackWhenRun() throws {
        #if os(Linux)
        func fileBackedKilobytes() throws -> Int {
            let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("RssFile:") })
            return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        }
        let before = try fileBackedKilobytes()
        #expect(hearth_release_unused_code() > 0)
        let after = try fileBackedKilobytes()
        #expect(after < before, "RssFile \(before) kB before, \(after) kB after")
        // Code that ran before runs again, from pages mapped anew.
        #expect(try KeptCryptoBufferTests.derive() == KeptCryptoBufferTests.expected)
        #endif
    }
}

/// swift-crypto's large scratch blocks (scrypt's) come from kept mappings: hashes stay right however many run at once,
/// more of them than there are kept blocks included.
struct KeptCryptoBufferTests {
    /// RFC 7914, section 12: scrypt("pleaseletmein", "SodiumChloride", N = 16384, r = 8, p = 1), its first 32 bytes.
    static let expected = "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2"

    static func derive() throws -> String {
        let key = try KDF.Scrypt.deriveKey(
            from: Array("pleaseletmein".utf8), salt: Array("SodiumChloride".utf8), outputByteCount: 32, rounds: 16_384,
            blockSize: 8, parallelism: 1)
        return key.withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }
    }

    @Test func hashesAreRightWithKeptBlocksBusyOrFree() async throws {
        #expect(hearth_keep_large_crypto_buffers(2) == 2)
        #expect(try Self.derive() == Self.expected)
        // Six at once: two in kept blocks, the others from malloc.
        let results = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<6 { group.addTask { try Self.derive() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: Self.expected, count: 6))
        // The free kept blocks are released (other tests' hashes may hold one meanwhile), and made anew by the next hash.
        #expect((0...2).contains(hearth_release_kept_crypto_buffers()))
        #expect(try Self.derive() == Self.expected)
        #expect(hearth_keep_large_crypto_buffers(1_000) == 64)
        #expect(hearth_keep_large_crypto_buffers(2) == 2)
    }
}
