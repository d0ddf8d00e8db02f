import Glibc
@testable import PlantLeafCommandLine
@testable import PlantLeafCore
@testable import PlantLeafCamera
import PlantLeafJournal
import PlantLeafMQTT
import Testing

/// camera's own lines for people (the set-up line, the notices, the summary) come from the
/// catalogue: each reads whole in every language with its values, English as it was.
@Suite struct CameraWordsTests {
    static let hd = FrameSize(width: 1280, height: 720)

    static func deviceSetup(_ choice: CaptureChoice, framesPerSecond: Double?) -> CameraSetup {
        .device(DeviceSetup(device: DeviceDescription(path: "/dev/video0", card: "HD Webcam", driver: "uvcvideo", formats: []),
                            plan: CapturePlan(format: .mjpeg, size: hd, interval: nil, reason: choice),
                            stream: StreamFormat(format: .mjpeg, size: hd, bytesPerLine: 0, framesPerSecond: framesPerSecond), bufferCount: 4))
    }

    static func summary(fromStream: Bool) -> CameraSummary {
        var counts = CaptureCounts()
        (counts.captured, counts.dropped, counts.flaggedError, counts.superseded) = (120, 7, 3, 11)
        (counts.broken, counts.oversized, counts.skippedBytes) = (5, 1, 99_001)
        var summary = CameraSummary(counts: counts, classified: 97, verdicts: [.diagnosis: 90, .uncertain: 4, .noLeaf: 2, .noPicture: 1],
                                    corrupt: 6, lastCorruptFrame: .tooShort(bytes: 100, expected: 153_600), ages: [20, 30, 40],
                                    signal: fromStream ? nil : SIGINT, failure: nil)
        summary.streamEnded = fromStream
        summary.failedAttempts = 8
        return summary
    }

    /// Every line camera words itself, made in `catalogue`, with the values it must show.
    static func lines(in catalogue: Catalogue) -> [(line: String, values: [String])] {
        let notices: [(CameraNotice, [String])] = [
            (.frameDropped(source: "standard input", .endedInsideFrame(bytes: 1000)), ["standard input", "1000"]),
            (.frameDropped(source: "cam.mjpeg", .oversized(limit: 16_777_216)), ["cam.mjpeg", "16777216"]),
            (.frameDropped(source: "cam.mjpeg", .damaged(.noMarker(atByte: 412))), ["cam.mjpeg", "JPEG", "412"]),
            (.frameDropped(source: "cam.mjpeg", .damaged(.cutOff(afterBytes: 3000))), ["cam.mjpeg", "3000"]),
            (.frameDropped(source: "cam.mjpeg", .damaged(.badSegmentLength(1))), ["cam.mjpeg", "1"]),
            (.noticesNotShown(count: 17), ["17"]),
            (.retrying(.noSuchDevice(path: "/dev/video0", existing: []), pause: 2.5), ["/dev/video0", "/dev/video*", "2.5"]),
            (.cameraBack(device: "/dev/video0", failedAttempts: 3), ["/dev/video0", "3"]),
        ]
        let requested = CaptureChoice(formatRequested: true, sizeNotOffered: FrameSize(width: 800, height: 600))
        let automatic = CaptureChoice(formatRequested: false, alsoOffered: [.init(format: .yuyv, size: hd, framesPerSecond: 10),
                                                                            .init(format: .nv12, size: hd, framesPerSecond: 0)])
        let setups: [(CameraSetup, [String])] = [
            (deviceSetup(requested, framesPerSecond: 30), ["/dev/video0 (HD Webcam", "uvcvideo", "MJPEG 1280x720", "30", "center", "4", "800x600", "1280x720"]),
            (deviceSetup(automatic, framesPerSecond: nil), ["/dev/video0", "HD Webcam", "uvcvideo", "center", "MJPEG 1280x720", "YUYV 1280x720", "10", "NV12 1280x720]"]),
            (.stream(name: "standard input", maxFrameBytes: 16 << 20), ["standard input", "motion-JPEG", "center", "16 MiB"]),
        ]
        let listed = DeviceDescription(path: "/dev/video0", card: "HD Webcam", driver: "uvcvideo", busInfo: "usb-0000:01:00.0-1.2", formats: [
            FormatDescription(fourCC: FourCC.code("MJPG"), name: "Motion-JPEG", compressed: true, sizes: .discrete([
                SizeOption(size: hd, intervals: [FrameInterval(numerator: 1, denominator: 30), FrameInterval(numerator: 1, denominator: 15)]),
            ])),
            FormatDescription(fourCC: FourCC.code("H264"), name: "H.264", compressed: true, sizes: .discrete([SizeOption(size: hd, intervals: [])])),
            FormatDescription(fourCC: FourCC.code("YUYV"), name: "YUYV 4:2:2", sizes: .stepwise(
                minimum: FrameSize(width: 16, height: 16), maximum: FrameSize(width: 1920, height: 1080), step: FrameSize(width: 2, height: 2), probed: nil)),
        ])
        let links: [(MQTTEvent, [String])] = [
            (.connected(broker: "127.0.0.1:1883"), ["127.0.0.1:1883"]),
            (.cannotConnect(broker: "127.0.0.1:1883", reason: "connection refused"), ["127.0.0.1:1883", "connection refused", "1", "60"]),
            (.refused(broker: "127.0.0.1:1883", reason: "not authorised"), ["127.0.0.1:1883", "not authorised", "1", "60"]),
            (.lost(broker: "127.0.0.1:1883", reason: "the connection was lost"), ["127.0.0.1:1883", "the connection was lost", "1", "60"]),
            (.unsolicitedMessage(broker: "127.0.0.1:1883"), ["127.0.0.1:1883", "1", "60"]),
            (.tlsFailed(broker: "h:8883", reason: "certificate verify failed"), ["h:8883", "certificate verify failed"]),
            (.notPublished(topic: "plantleaf/bench/state", reason: "out of memory"), ["plantleaf/bench/state", "out of memory"]),
        ]
        let journal: [(JournalNotice, [String])] = [
            (.writeFailed(.diskFull(path: "j.sqlite")), ["j.sqlite"]),
            (.writeFailed(.failed(path: "j.sqlite", step: "inserting a reading", reason: "database is locked")),
             ["j.sqlite", "inserting a reading", "database is locked"]),
            (.writingAgain(path: "j.sqlite"), ["j.sqlite"]),
            (.writeFailed(.busy(path: "j.sqlite")), ["j.sqlite"]),
            (.fallingBehind(path: "j.sqlite"), ["j.sqlite"]),
            (.caughtUp(path: "j.sqlite", count: 15), ["j.sqlite", "15"]),
            (.replaced(path: "j.sqlite"), ["j.sqlite"]),
            (.rowPassedOver(path: "j.sqlite", row: JournalDamagedRow(table: "readings", id: 5, column: "utc_offset", value: "9000000000000000")),
             ["j.sqlite", "readings", "5", "utc_offset", "9000000000000000"]),
        ]
        let summaryValues = ["120", "97", "90", "4", "2", "1", "6", "30 ms", "100", "153600"]
        return notices.map { (EventText.line($0.0, in: catalogue), $0.1) }
            + links.map { (EventText.line($0.0, in: catalogue), $0.1) }
            + journal.map { (EventText.line($0.0, in: catalogue), $0.1) }
            + setups.map { (CameraOutput.setupLine($0.0, crop: .center, in: catalogue), $0.1) }
            + [(CameraOutput.summaryLine(summary(fromStream: true), fromStream: true, retriesDevice: false, in: catalogue),
                summaryValues + ["11", "5", "99001"]),
               (CameraOutput.summaryLine(summary(fromStream: false), fromStream: false, retriesDevice: true, in: catalogue),
                summaryValues + ["7", "3", "8", "Ctrl-C"]),
               ("plantleaf camera: " + catalogue["camera.no-preview"], ["--preview", "TERM"]),
               ("plantleaf camera: " + catalogue["camera.list.no-devices"], ["/dev/video*", "dmesg"]),
               (CameraOutput.deviceListing(path: "/dev/video0", listed, in: catalogue),
                ["/dev/video0: HD Webcam", "uvcvideo", "usb-0000:01:00.0-1.2", "MJPG Motion-JPEG", "--pixel-format mjpeg", "H264 H.264",
                 "1280x720: 30, 15", "1280x720", "--pixel-format yuyv", "YUYV", "16x16", "1920x1080", "2x2"]),
               ("plantleaf camera: " + catalogue["journal.notice.no-home"], ["XDG_STATE_HOME", "HOME", "--journal FILE", "--no-journal"]),
               ("plantleaf camera: " + catalogue.text("journal.notice.not-kept", ["problem": Remedy.line(JournalError.readOnly(path: "j.sqlite"), in: catalogue)]),
                ["j.sqlite", "--journal FILE"]),
               ("plantleaf camera: " + catalogue.text("camera.log-unwritable", ["path": "run.jsonl", "reason": "no space left on device"]),
                ["--log run.jsonl", "no space left on device"])]
    }

    @Test func everyLineReadsWholeInEveryLanguageWithItsValues() throws {
        let arabic = try #require(Catalogue(language: "ar"))
        for ((englishLine, values), (arabicLine, _)) in zip(Self.lines(in: .english), Self.lines(in: arabic)) {
            WordedErrorTests.expectTranslated(english: englishLine, arabic: arabicLine, values: values)
        }
    }

    /// Every camera text in the catalogue is one these lines print, the broker link's and the journal's among them.
    @Test func theLinesUseEveryCameraText() {
        let english = Catalogue.english
        let keys = english.ownKeys.filter { $0.hasPrefix("camera.") || $0.hasPrefix("list.") || $0.hasPrefix("mqtt.link.") || $0.hasPrefix("journal.notice.") }
        let marked = Catalogue(code: "marked", texts: Dictionary(uniqueKeysWithValues: keys.map { ($0, "⟨\($0)⟩" + english[$0]) }))
        let printed = Self.lines(in: marked).map(\.line).joined(separator: "\n")
        let used = Set(printed.matches(of: #/⟨([A-Za-z0-9.\-]+)⟩/#).map { String($0.output.1) })
        #expect(keys.subtracting(used).sorted() == [], "no line prints these")
    }

    /// Today's English, byte for byte, for the lines the end-to-end tests cannot make (a device's).
    @Test func englishIsTheTextItWas() {
        let webcam = DeviceDescription(path: "/dev/video0", card: "vivid", driver: "vivid", busInfo: "platform:vivid-000", formats: [
            FormatDescription(fourCC: FourCC.code("MJPG"), name: "Motion-JPEG", compressed: true, sizes: .discrete([
                SizeOption(size: Self.hd, intervals: [FrameInterval(numerator: 1, denominator: 30)]), SizeOption(size: Self.hd, intervals: []),
            ])),
            FormatDescription(fourCC: FourCC.code("UYVY"), name: "UYVY 4:2:2", sizes: .stepwise(
                minimum: FrameSize(width: 16, height: 16), maximum: FrameSize(width: 16384, height: 8640), step: FrameSize(width: 2, height: 2), probed: nil)),
        ])
        #expect(CameraOutput.deviceListing(path: "/dev/video0", webcam).split(separator: "\n") == [
            "/dev/video0: vivid (driver vivid, platform:vivid-000)", "  MJPG Motion-JPEG (compressed); --pixel-format mjpeg",
            "    1280x720: 30 fps", "    1280x720", "  UYVY UYVY 4:2:2, not readable by PlantLeaf", "    16x16 to 16384x8640, step 2x2",
        ])
        let automatic = CaptureChoice(formatRequested: false, alsoOffered: [.init(format: .yuyv, size: Self.hd, framesPerSecond: 10)])
        #expect(CameraOutput.setupLine(Self.deviceSetup(automatic, framesPerSecond: 30), crop: .center)
            == "/dev/video0 (HD Webcam, uvcvideo): MJPEG 1280x720 at 30 fps, crop center, 4 buffers [auto; also offered: YUYV 1280x720 at 10 fps]")
        let requested = CaptureChoice(formatRequested: true, sizeNotOffered: FrameSize(width: 800, height: 600))
        #expect(CameraOutput.setupLine(Self.deviceSetup(requested, framesPerSecond: nil), crop: .center)
            == "/dev/video0 (HD Webcam, uvcvideo): MJPEG 1280x720, crop center, 4 buffers [requested; 800x600 not offered, nearest is 1280x720]")
        #expect(EventText.line(.retrying(.noSuchDevice(path: "/dev/video0", existing: []), pause: 1))
            == "/dev/video0: no such device; no /dev/video* devices exist; trying again in 1 s")
        #expect(EventText.line(.frameDropped(source: "standard input", .damaged(.noMarker(atByte: 2))))
            == "standard input: damaged frame dropped: no JPEG marker where one must be (byte 2 of the frame)")
        #expect(EventText.line(MQTTEvent.tlsFailed(broker: "h:8883", reason: "certificate verify failed"))
            == "TLS with h:8883 failed: certificate verify failed; not retrying (check the CA file and the broker's host name)")
        #expect(EventText.line(JournalNotice.writeFailed(.diskFull(path: "j.sqlite"))) == "journal j.sqlite: the disk is full; readings go on to the other outputs")
        #expect(EventText.line(JournalNotice.writingAgain(path: "j.sqlite")) == "journal j.sqlite: writing again")
        #expect(EventText.line(MQTTEvent.notPublished(topic: "plantleaf/bench/state", reason: "out of memory"))
            == "not published to plantleaf/bench/state: out of memory")
    }
}
