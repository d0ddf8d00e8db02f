import Glibc
@testable import PlantLeafCommandLine
import PlantLeafCore
import PlantLeafCamera
import PlantLeafBench
import PlantLeafMQTT
import PlantLeafSupport
import Testing

/// The library's errors say what failed and where; the command line adds what to type. These
/// pin that split: no library message names a flag or make target, and the CLI's line has both.
@Suite struct RemedyTests {
    static let libraryErrors: [any PlantLeafError] = [
        RuntimeError.libraryNotFound(searched: ["/opt/lib/libLiteRt.so"]),
        RuntimeError.libraryUnusable(path: "/opt/lib/libLiteRt.so", reason: "wrong ELF class"),
        RuntimeError.modelNotFound(path: "m.tflite"),
        RuntimeError.damagedModel(path: "m.tflite", reason: "table out of bounds"),
        LabelError.unreadable(path: "labels.txt", reason: .system(SystemError(ENOENT))),
        LabelError.countMismatch(path: "labels.txt", labels: 3, classes: 38),
        CameraError.noSuchDevice(path: "/dev/video3", existing: ["/dev/video0"]),
        CameraError.noFrame(path: "/dev/video0", timeout: 5),
        CameraError.setupFailed(path: "/dev/video0", step: .checkFormat, reason: .system(SystemError(EINVAL))),
        BenchError.invalidSettings("runs must be at least 1, got 0"),
        BenchError.imageUnreadable(path: "leaf.jpg", reason: "No such file or directory"),
        BenchError.reportInvalid(path: "r.json", reason: "not JSON"),
        MQTTError.passwordInURL(url: "mqtt://u:***@h/t"),
        MQTTError.tlsFailed(broker: "h:8883", reason: "certificate verify failed"),
    ]

    @Test func libraryMessagesNameNoFlagOrMakeTarget() {
        for error in Self.libraryErrors {
            let text = error.description
            #expect(!text.contains("--") && !text.contains("make ") && !text.contains("plantleaf camera"), "\(text)")
        }
    }

    @Test func commandLineAddsWhatToType() {
        #expect(Remedy.line(RuntimeError.modelNotFound(path: "m.tflite"))
            == "model not found: m.tflite (run `make setup` to link the default model, or pass --model)")
        #expect(Remedy.line(ClassifierSetupError.labels(.unreadable(path: "labels.txt", reason: .system(SystemError(ENOENT)))))
            == "cannot read labels labels.txt: no such file or directory (run `make setup`, or pass --labels)")
        #expect(Remedy.line(CameraError.noFrame(path: "/dev/video0", timeout: 5))
            == "/dev/video0: no frame within 5 s; check the camera is connected and not covered by another input (or raise --timeout)")
        #expect(Remedy.line(BenchError.setup(.runtime(.modelNotFound(path: "m.tflite"))))
            == "model not found: m.tflite (run `make setup` to link the default model, or pass --model)")
        // An error the CLI has nothing to add to is its own line.
        #expect(Remedy.line(CameraError.cannotOpen(path: "/dev/video0", reason: .system(SystemError(EIO))))
            == "/dev/video0: cannot open: input/output error")
        for error in Self.libraryErrors {
            #expect(Remedy.suffix(for: error) != nil, "no remedy for \(error)")
        }
    }
}
