import Glibc

/// Gives every measured run the same allocator behaviour.
///
/// glibc's malloc serves large blocks with mmap and hands them back to the kernel when they are
/// freed, and trims the top of the heap, until a large mmapped block is freed: it then raises
/// both thresholds to that block's size (mallopt(3), the dynamic mmap threshold). A decode
/// allocates blocks of about 200 KB per image, so before a raise every image pays fresh page
/// faults. In one benchmark process the raise came when the first thread count's interpreter was
/// released, so whichever count ran first had the slower decode (median 0.35 ms against 0.24 ms on
/// the same 256 x 256 leaf here, in either order), and a smaller raise left later counts slower.
/// Freeing one block just under glibc's 32 MiB cap on the dynamic threshold, before anything is
/// measured, raises it once and for all: no run pays those faults. What remains is smaller: counts
/// measured after an interpreter was released decode in about 0.25 ms against the first's 0.20 ms,
/// the heap's layout having changed.
enum SteadyAllocator {
    static let blockSize = 31 << 20

    /// Whether the block could be allocated, and so the thresholds were raised.
    @discardableResult
    static func settle() -> Bool {
        var block: UnsafeMutableRawPointer?
        // posix_memalign rather than malloc: the optimiser deletes a malloc/free pair whose memory
        // is never used. The block is never touched, so it costs no resident memory.
        guard posix_memalign(&block, 64, blockSize) == 0, let block else { return false }
        free(block)
        return true
    }
}
