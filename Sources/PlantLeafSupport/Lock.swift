import Glibc

/// A pthread mutex, one condition variable on it, and the state they guard: for state that a
/// thread waits on until another changes it (the capture mailbox, the live feed, the MQTT link).
/// State without such waits is kept in Synchronization's Mutex, which has no condition to wait on.
///
/// The mutex, the condition and the state live in memory allocated once, because pthreads needs
/// them at a fixed address and Swift may move a stored property. The state is reached only
/// through that memory, so each test of a waiting condition reads it afresh after a wait.
package final class Lock<State> {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let state = UnsafeMutablePointer<State>.allocate(capacity: 1)

    package init(_ initialState: State) {
        state.initialize(to: initialState)
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
        state.deinitialize(count: 1)
        state.deallocate()
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` on the state with the lock held.
    package func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }

    /// Takes the lock, waits (letting go of it meanwhile) until `isReady` holds of the state,
    /// then runs `body` on it with the lock held.
    package func withLock<Result>(waitingUntil isReady: (State) -> Bool, _ body: (inout State) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        // The system may wake a waiter for nothing: the state says whether to wait again.
        while !isReady(state.pointee) { pthread_cond_wait(condition, mutex) }
        return body(&state.pointee)
    }

    /// As `withLock(waitingUntil:_:)`, but waits no longer than until `deadline` (a
    /// `MonotonicClock` time): `body` then runs whether or not the state is ready.
    package func withLock<Result>(waitingUntil isReady: (State) -> Bool, deadline: UInt64, _ body: (inout State) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while !isReady(state.pointee) && MonotonicClock.nanoseconds() < deadline {
            pthread_cond_timedwait(condition, mutex, &time)
        }
        return body(&state.pointee)
    }

    /// Wakes one waiting thread; called with the lock held, after changing what it waits for.
    package func signal() {
        pthread_cond_signal(condition)
    }

    /// Wakes every waiting thread; called with the lock held, after changing what they wait for.
    package func broadcast() {
        pthread_cond_broadcast(condition)
    }
}

// The compiler cannot see that every access to the state goes through the pthread mutex: the
// state sits behind raw pointers. Only a Sendable state may be shared this way, so nothing the
// lock hands out can be reached from two threads outside it.
extension Lock: @unchecked Sendable where State: Sendable {}
