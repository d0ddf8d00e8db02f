import Glibc

/// A POSIX thread running one closure; `join` waits for it. Own threads rather than Dispatch's
/// pool, so a thread that cannot be started is an error the caller sees.
package final class WorkerThread: Sendable {
    private let thread: pthread_t

    private final class Body {
        let run: () -> Void
        init(_ run: sending @escaping () -> Void) { self.run = run }
    }

    /// `run` is sent to the new thread: what it captures must be Sendable or no longer used here.
    package init(_ run: sending @escaping () -> Void) throws(ThreadStartError) {
        let body = Unmanaged.passRetained(Body(run)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, body)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(body).release()
            throw ThreadStartError(code: status)
        }
        self.thread = thread
    }

    package func join() { pthread_join(thread, nil) }
}

extension WorkerThread {
    /// Whether `count` more threads can run at once now: starts them, all held until the last
    /// one started, then lets them end. For thread pools (XNNPACK's) that do not report a
    /// thread they failed to start and break later instead.
    package static func checkStartable(_ count: Int) throws(ThreadStartError) {
        let gate = Lock(false)
        var threads: [WorkerThread] = []
        var failure: ThreadStartError?
        for _ in 0..<count {
            do {
                threads.append(try WorkerThread { gate.withLock(waitingUntil: { isOpen in isOpen }) { _ in } })
            } catch {
                failure = error
                break
            }
        }
        gate.withLock { isOpen in
            isOpen = true
            gate.broadcast()
        }
        for thread in threads { thread.join() }
        if let failure { throw failure }
    }
}
