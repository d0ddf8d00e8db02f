import Foundation
import PlantLeafTestSupport
import Testing

/// `plantleaf camera` faults that need no camera; the fixture tests (PlantLeafCameraTests) cover
/// real devices.
@Suite struct CameraCLITests {
    @Test func missingDeviceSaysSoAndListsNothingFalse() throws {
        let result = try runPlantLeaf(["camera", "--device", "/dev/video-plantleaf-missing", "--frames", "1"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/dev/video-plantleaf-missing: no such device"))
        #expect(result.stderrLines.count == 1)
    }

    /// An Arabic locale: the error and its remedy are one Arabic line, the path and command as typed.
    @Test func aMissingDeviceIsSaidInArabicWithItsRemedy() throws {
        let result = try runPlantLeaf(["camera", "--device", "/dev/video99", "--frames", "1"],
                                      environment: ["LC_ALL": "", "LC_MESSAGES": "", "LANG": "ar_EG.UTF-8"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        let devices = try FileManager.default.contentsOfDirectory(atPath: "/dev").filter { $0.hasPrefix("video") && Int($0.dropFirst(5)) != nil }
        if devices.isEmpty {
            #expect(result.stderrLines == ["plantleaf camera: /dev/video99: لا يوجد جهاز بهذا الاسم، ولا يوجد أي جهاز /dev/video*: صِل كاميرا بالجهاز (وانظر ما يقوله dmesg)"])
        } else {
            #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("plantleaf camera: /dev/video99: لا يوجد جهاز بهذا الاسم؛ الأجهزة الموجودة: /dev/video")
                && result.stderr.hasSuffix(" (انظر plantleaf camera --list)\n"), "\(result.stderr)")
        }
    }

    /// The device is looked at before the model loads: a wrong --device is the one error, even
    /// with a model that cannot be loaded.
    @Test func aMissingDeviceIsSaidBeforeTheModelLoads() throws {
        let result = try runPlantLeaf(["camera", "--device", "/dev/video-plantleaf-missing", "--model", "/no/such/model.tflite", "--frames", "1"])
        #expect(result.status == 2)
        #expect(result.stderrLines.count == 1 && result.stderr.contains("/dev/video-plantleaf-missing: no such device"), "\(result.stderr)")
    }

    @Test func nodeThatIsNoV4L2DeviceIsRefused() throws {
        let result = try runPlantLeaf(["camera", "--device", "/dev/null", "--frames", "1"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/dev/null: not a video capture device (not a V4L2 device)"))
    }

    @Test func badOptionsAreUsageErrors() throws {
        for (arguments, message) in [(["--size", "640"], "--size must look like 640x480"),
                                     (["--format", "h264"], "--format must be one of text, json, got 'h264'"),
                                     (["--pixel-format", "h264"], "--pixel-format must be one of auto, yuyv, nv12, rgb24, mjpeg, got 'h264'"),
                                     (["--fps", "0"], "--fps must be above 0"),
                                     (["--frames", "0"], "--frames must be from 1 to 1000000000, got 0")] {
            let result = try runPlantLeaf(["camera"] + arguments)
            #expect(result.status == 2)
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    @Test func helpDescribesPreview() throws {
        let help = try runPlantLeaf(["camera", "--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: plantleaf camera"))
        #expect(help.stdout.contains("--preview") && help.stdout.contains("JSON output (--format json, or stdout not a terminal)"), "\(help.stdout)")
    }

    /// stdout is a pipe here, so the run is JSON: --preview is accepted and says nothing.
    @Test func previewIsAcceptedAndIgnoredWithJSONOutput() throws {
        for arguments in [["--preview"], ["--preview", "--format", "json"]] {
            let result = try runPlantLeaf(["camera", "--device", "/dev/video-plantleaf-missing", "--frames", "1"] + arguments)
            #expect(result.status == 2)
            #expect(result.stderrLines.count == 1 && result.stderr.contains("/dev/video-plantleaf-missing: no such device"),
                    "\(arguments): \(result.stderr)")
        }
    }

    /// The spellings renamed in 0.1.0 still work for this release: the same run, plus one line
    /// saying what to write instead.
    @Test func oldSpellingsWorkWithOneNotice() throws {
        let missing = ["camera", "--device", "/dev/video-plantleaf-missing", "--frames", "1"]
        let current = try runPlantLeaf(missing + ["--format", "json", "--pixel-format", "mjpeg"])
        let old = try runPlantLeaf(missing + ["--json", "--format", "mjpeg"])
        #expect(old.status == current.status && old.stdout == current.stdout)
        #expect(old.stderrLines == [
            "plantleaf camera: warning: --format mjpeg is deprecated and stops working in plantleaf 0.2.0: use --pixel-format mjpeg",
            "plantleaf camera: warning: --json is deprecated and stops working in plantleaf 0.2.0: use --format json",
        ] + current.stderrLines, "\(old.stderr)")
    }

    @Test func benchFramesTimesBothFormatsAgainstInvoke() throws {
        let result = try runPlantLeaf(["camera", "--bench-frames", TestPaths.plantVillageImages()[0], "--iterations", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("YUYV: median"))
        #expect(result.stdout.contains("MJPEG ("))
        #expect(result.stdout.contains("% of invoke"))
    }
}
