import Glibc

/// A pthread mutex and one condition variable on it: the one lock of every object that threads
/// share. Both live in memory allocated once, because pthreads needs them at a fixed address
/// and Swift may move a stored property. (Synchronization's Mutex would stay put, but has no
/// condition to wait on, which the capture mailbox and the MQTT link need.)
package final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        // Timed waits count on CLOCK_MONOTONIC, so setting the wall clock does not cut them short.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func withLock<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Inside `withLock` only: lets go of the lock until another thread signals (or the system
    /// wakes this one for nothing: callers check their condition again), then holds it again.
    package func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Inside `withLock` only: as `wait`, but for no longer than until `deadline` (a
    /// `MonotonicClock` time). False, without waiting, once the deadline has passed.
    package func wait(until deadline: UInt64) -> Bool {
        guard MonotonicClock.nanoseconds() < deadline else { return false }
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        pthread_cond_timedwait(condition, mutex, &time)
        return true
    }

    /// Wakes one waiting thread.
    package func signal() {
        pthread_cond_signal(condition)
    }

    /// Wakes every waiting thread.
    package func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
