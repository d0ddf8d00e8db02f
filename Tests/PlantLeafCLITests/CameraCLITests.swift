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

    @Test func nodeThatIsNoV4L2DeviceIsRefused() throws {
        let result = try runPlantLeaf(["camera", "--device", "/dev/null", "--frames", "1"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/dev/null: not a video capture device (not a V4L2 device)"))
    }

    @Test func badOptionsAreUsageErrors() throws {
        for (arguments, message) in [(["--size", "640"], "--size must look like 640x480"),
                                     (["--format", "h264"], "--format must be one of auto, yuyv, mjpeg, nv12, rgb24"),
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
        #expect(help.stdout.contains("--preview") && help.stdout.contains("JSON output (--json, or stdout not a terminal)"), "\(help.stdout)")
    }

    /// stdout is a pipe here, so the run is JSON: --preview is accepted and says nothing.
    @Test func previewIsAcceptedAndIgnoredWithJSONOutput() throws {
        for arguments in [["--preview"], ["--preview", "--json"]] {
            let result = try runPlantLeaf(["camera", "--device", "/dev/video-plantleaf-missing", "--frames", "1"] + arguments)
            #expect(result.status == 2)
            #expect(result.stderrLines.count == 1 && result.stderr.contains("/dev/video-plantleaf-missing: no such device"),
                    "\(arguments): \(result.stderr)")
        }
    }

    @Test func benchFramesTimesBothFormatsAgainstInvoke() throws {
        let result = try runPlantLeaf(["camera", "--bench-frames", TestPaths.plantVillageImages()[0], "--iterations", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("YUYV: median"))
        #expect(result.stdout.contains("MJPEG ("))
        #expect(result.stdout.contains("% of invoke"))
    }
}
