import Glibc

/// Installs signal handlers that are sure to run.
package enum SignalHandler {
    /// Sets `handler` for `number` and unblocks the signal in the calling thread (and so in the
    /// threads it starts later). A blocked signal mask survives exec, so a parent that blocks
    /// SIGTERM or SIGHUP (some test runners and supervisors do) would otherwise leave plantleaf
    /// deaf to them. Returns the handler that was there before.
    package static func install(_ number: Int32, _ handler: @convention(c) (Int32) -> Void) -> sighandler_t? {
        let previous = signal(number, handler)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, number)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        return previous
    }
}
