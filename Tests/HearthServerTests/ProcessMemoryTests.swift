import CProcessMemory
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
}
