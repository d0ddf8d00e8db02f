import Glibc
import Synchronization

/// The SIGHUPs this process has had, counted: files kept open for weeks (the --log file, the
/// journal) open their path again at their next write once the count has moved, so logrotate,
/// or a grower who moved the file away, can start a new one.
package enum HangUp {
    /// Touched before a handler can run: a static's first use is not safe in a signal handler.
    package static let received = Atomic<Int>(0)

    /// Counts SIGHUP in `received` and nothing else (rather than its default, ending the process).
    package static func install() {
        _ = received.load(ordering: .relaxed)
        _ = SignalHandler.install(SIGHUP) { _ in HangUp.received.wrappingAdd(1, ordering: .relaxed) }
    }

    /// Counts one SIGHUP, for a program that waits for the signal itself (serve's sigwait).
    package static func count() {
        received.wrappingAdd(1, ordering: .relaxed)
    }
}
