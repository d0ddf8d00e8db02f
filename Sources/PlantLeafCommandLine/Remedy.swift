import PlantLeafCore
import PlantLeafCamera
import PlantLeafBench
import PlantLeafJournal
import PlantLeafMQTT
import PlantLeafServe

/// What to type about a library error. PlantLeafKit's errors say what failed and where; this adds
/// the flag, variable, make target or command that fixes it, as text to append to the error's own.
/// An error with catalogue words (`WordedError`) is said with its remedy in the catalogue's
/// language; the others' lines are English, whole.
enum Remedy {
    /// The one line a command prints when the generalist check cannot run: what is wrong with
    /// which file, that every result says the check was skipped, and what to do.
    static func skippedCheckLine(_ problem: SecondOpinionError, in catalogue: Catalogue = .english) -> String {
        let remedy: String
        switch problem {
        case .model(.invalidInputSide(_, let allowed)):
            remedy = catalogue.text("remedy.skipped-check.input-side", ["variable": ProjectPaths.generalistSideVariable,
                                                                        "lowest": String(allowed.lowerBound), "highest": String(allowed.upperBound)])
        case .model:
            remedy = catalogue["remedy.skipped-check.model"]
        case .reference(.wrongGeneralist):
            remedy = catalogue["remedy.skipped-check.remake-for-generalist"]
        case .reference(.wrongLength), .reference(.wrongInputSide), .reference(.damaged), .reference(.notAReference):
            remedy = catalogue["remedy.skipped-check.remake-reference"]
        case .reference, .notConfigured:
            remedy = catalogue["remedy.skipped-check.make-reference"]
        }
        return catalogue.text("remedy.skipped-check", ["problem": problem.description(in: catalogue), "remedy": remedy])
    }

    /// The error's line with its remedy, if it has one: in `catalogue`'s language when the error
    /// has catalogue words, else in English.
    static func line(_ error: any Error, in catalogue: Catalogue = .english) -> String {
        guard let worded = error as? any WordedError else { return "\(error)" + (suffix(for: error, in: .english) ?? "") }
        return worded.description(in: catalogue) + (suffix(for: error, in: catalogue) ?? "")
    }

    static func suffix(for error: any Error, in catalogue: Catalogue = .english) -> String? {
        switch error {
        case let error as RuntimeError: return suffix(for: error, in: catalogue)
        case let error as LabelError: return suffix(for: error, in: catalogue)
        case let error as ClassifierSetupError:
            switch error {
            case .runtime(let error): return suffix(for: error, in: catalogue)
            case .labels(let error): return suffix(for: error, in: catalogue)
            }
        case let error as CameraError: return suffix(for: error, in: catalogue)
        case let error as BenchError: return suffix(for: error)
        case let error as MQTTError: return suffix(for: error, in: catalogue)
        case let error as ServeError: return suffix(for: error)
        case let error as JournalError: return suffix(for: error, in: catalogue)
        default: return nil
        }
    }

    private static func suffix(for error: RuntimeError, in catalogue: Catalogue) -> String? {
        switch error {
        case .libraryNotFound: return catalogue.text("remedy.library-not-found", ["variable": ProjectPaths.liteRtVariable])
        case .libraryUnusable: return catalogue["remedy.library-unusable"]
        case .modelNotFound: return catalogue["remedy.model-not-found"]
        case .damagedModel: return catalogue["remedy.damaged-model"]
        // Only the variable can name the library without a folder: plantleaf's own search uses paths.
        case .libraryPathNotAPath: return catalogue.text("remedy.library-path-variable", ["variable": ProjectPaths.liteRtVariable])
        case .modelUnreadable, .notAModel, .unsupportedModel, .callFailed, .invalidThreadCount, .invalidInputSide, .threadsUnavailable: return nil
        }
    }

    private static func suffix(for error: LabelError, in catalogue: Catalogue) -> String? {
        switch error {
        case .unreadable: return catalogue["remedy.labels-unreadable"]
        case .countMismatch: return catalogue["remedy.labels-count-mismatch"]
        case .notText, .empty: return nil
        }
    }

    private static func suffix(for error: CameraError, in catalogue: Catalogue) -> String? {
        switch error {
        case .noSuchDevice(_, let existing): return catalogue[existing.isEmpty ? "remedy.camera.no-device" : "remedy.camera.list-devices"]
        case .permissionDenied: return catalogue["remedy.camera.permission-denied"]
        case .cannotOpen: return nil
        case .notCaptureDevice: return catalogue["remedy.camera.not-capture-device"]
        case .busy(let path): return catalogue.text("remedy.camera.busy", ["path": path])
        case .noSupportedFormat: return catalogue["remedy.camera.no-supported-format"]
        case .setupFailed: return catalogue["remedy.camera.setup-failed"]
        case .noFrame: return catalogue["remedy.camera.no-frame"]
        case .unplugged: return catalogue["remedy.camera.unplugged"]
        case .streamFailed: return catalogue["remedy.camera.stream-failed"]
        }
    }

    private static func suffix(for error: BenchError) -> String? {
        switch error {
        case .invalidSettings: return " (see plantleaf bench --help)"
        case .imageUnreadable: return " (pass --image FILE, or --synthetic to need no file)"
        case .imageUndecodable: return " (pass a PNG or JPEG with --image, or --synthetic)"
        case .syntheticImage: return " (pass --image FILE instead)"
        case .setup(let error): return suffix(for: error, in: .english)
        // It names the CPUs the process may use.
        case .pinning: return nil
        case .runtime(let error): return suffix(for: error, in: .english)
        case .outputUnwritable: return " (choose a writable path)"
        case .reportUnreadable: return nil
        case .reportInvalid: return " (write one with plantleaf bench --json FILE)"
        case .reportSchema: return " (rerun the benchmark with this version of plantleaf)"
        }
    }

    private static func suffix(for error: MQTTError, in catalogue: Catalogue) -> String? {
        switch error {
        case .passwordInURL: return catalogue["remedy.mqtt.password-in-url"]
        case .passwordWithoutUser: return catalogue["remedy.mqtt.password-without-user"]
        case .caFileWithoutTLS: return catalogue["remedy.mqtt.ca-file-without-tls"]
        case .libraryMissing: return catalogue["remedy.mqtt.library-missing"]
        case .libraryUnusable: return catalogue["remedy.mqtt.library-unusable"]
        case .refused(_, let user, _):
            return catalogue.text(user == nil ? "remedy.mqtt.refused.no-user" : "remedy.mqtt.refused", ["variable": MQTTSettings.passwordVariable])
        case .tlsFailed: return catalogue["remedy.mqtt.tls-failed"]
        // These name the value that is wrong and why; the option to change is plain from it.
        case .invalidURL, .invalidBaseTopic, .passwordFileUnreadable, .passwordNotText, .passwordFileEmpty, .caFileUnreadable, .unknownHost,
             .setupFailed:
            return nil
        }
    }

    private static func suffix(for error: ServeError) -> String? {
        switch error {
        case .libraryMissing: return ": install libmicrohttpd12 (sudo apt install libmicrohttpd12, libmicrohttpd12t64 on Debian 13)"
        case .libraryUnusable: return "; reinstall libmicrohttpd12 (sudo apt install --reinstall libmicrohttpd12)"
        case .tlsUnsupported: return ": serve plain HTTP behind a reverse proxy that holds the certificate (docs/serve.md)"
        case .addressInUse: return " (another program holds the port: pick another with --listen, or stop it)"
        case .cannotListen: return " (check --listen's address is this machine's, a port below 1024 needs root, and --tls-key fits --tls-cert)"
        // These name the file and what is wrong with it, or the thread and the system's reason.
        case .unusableFile, .cannotStart: return nil
        }
    }

    private static func suffix(for error: JournalError, in catalogue: Catalogue) -> String? {
        switch error {
        case .libraryMissing: return catalogue["remedy.journal.library-missing"]
        case .libraryUnusable: return catalogue["remedy.journal.library-unusable"]
        case .notFound: return catalogue["remedy.journal.not-found"]
        case .notADatabase, .notAJournal: return catalogue["remedy.journal.move-away"]
        case .notARegularFile: return catalogue["remedy.journal.not-regular"]
        case .newerSchema: return catalogue["remedy.journal.newer-schema"]
        case .readOnly: return catalogue["remedy.journal.read-only"]
        // These say what failed; the disk or the file system is the user's to see to.
        case .diskFull, .busy, .failed: return nil
        }
    }
}
