import PlantLeafSupport
import Synchronization

/// A monotonic clock that moves only when a test moves it: a decision made by time is then
/// tested at each moment that matters, with no wait.
package final class ManualClock: MonotonicTimeSource {
    private let now: Mutex<UInt64>

    /// Starts at an arbitrary time far from 0, as a real monotonic clock would be.
    package init(nanoseconds: UInt64 = 1_000_000_000_000) { now = Mutex(nanoseconds) }

    package func nanoseconds() -> UInt64 { now.withLock { $0 } }

    /// Moves the clock on by `seconds`.
    package func advance(seconds: Double) {
        now.withLock { $0 += UInt64(seconds * 1e9) }
    }
}
