/// Why a thread could not be started (pthread_create's error: EAGAIN when the process or user
/// thread limit, `ulimit -u`, is reached).
package struct ThreadStartError: WordedError {
    package var code: Int32
    package var reason: String { SystemError(code).reason }

    package init(code: Int32) { self.code = code }

    package func message(in catalogue: Catalogue) -> String { catalogue["error.thread.cannot-start"] }
    package func details(in catalogue: Catalogue) -> String? { SystemError(code).reason(in: catalogue) }
}
