/// Why a thread could not be started (pthread_create's error: EAGAIN when the process or user
/// thread limit, `ulimit -u`, is reached).
package struct ThreadStartError: PlantLeafError {
    package var code: Int32
    package var reason: String { SystemError(code).reason }
    package var message: String { "cannot start a thread" }
    package var details: String? { reason }
}
