/// Why a thread could not be started (pthread_create's error: EAGAIN when the process or user
/// thread limit, `ulimit -u`, is reached). Its words for people are PlantLeafCore's
/// (ThreadStartErrorWords.swift), where the catalogue is.
package struct ThreadStartError: Error, Equatable, Sendable {
    package var code: Int32
    package var reason: String { SystemError(code).reason }

    package init(code: Int32) { self.code = code }
}
