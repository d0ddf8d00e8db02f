import CAllocator

/// Steady memory behaviour for batches of images.
package enum Allocator {
    /// Keeps freed image-sized buffers (up to 32 MiB) in the process: otherwise glibc hands each
    /// photo's ~200 KB decode buffers back to the kernel and the next photo pays fresh page faults
    /// (0.1 ms a 256x256 leaf here). Call once at start; returns whether it took effect.
    @discardableResult
    package static func keepFreedMemory() -> Bool {
        pl_keep_freed_memory(32 << 20) == 1
    }
}
