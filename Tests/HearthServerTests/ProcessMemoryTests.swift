import CProcessMemory
import Testing

/// `hearth serve` tunes glibc's allocator at start; the C part must reach glibc (a stub answers 0 elsewhere).
struct ProcessMemoryTests {
    @Test func theAllocatorIsTunedOnGlibc() {
        #if os(Linux)
        #expect(hearth_tune_allocator(2, 256 * 1024) == 1)
        #endif
    }
}
