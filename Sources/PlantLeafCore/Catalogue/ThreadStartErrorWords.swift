import PlantLeafSupport

// ThreadStartError is PlantLeafSupport's (WorkerThread throws it), which knows no catalogue.
extension ThreadStartError: WordedError {
    package func message(in catalogue: Catalogue) -> String { catalogue["error.thread.cannot-start"] }
    package func details(in catalogue: Catalogue) -> String? { SystemError(code).reason(in: catalogue) }
}
