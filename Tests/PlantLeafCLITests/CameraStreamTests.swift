import Foundation
import PlantLeafCore
import PlantLeafCamera
import PlantLeafTestSupport
import PlantLeafJournal
import Testing

/// `plantleaf camera --input`: motion-JPEG streams from ffmpeg, pipes and files the tests make,
/// with `--log`, `--every` and the records' wall-clock times.
@Suite struct CameraStreamTests {
    static let appleScab = TestPaths.appleScabLeaf
    static let tomatoHealthy = TestPaths.healthyTomatoLeaf
    static let timePattern = #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$"#

    static func bytes(_ path: String) throws -> [UInt8] { try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) }

    /// The per-frame objects and the summary of a --format json run.
    static func records(_ text: String) -> (frames: [[String: Any]], summary: [String: Any]) {
        let objects = text.split(separator: "\n").compactMap { jsonObject(String($0)) }
        return (objects.filter { $0["frame"] != nil }, objects.last?["summary"] as? [String: Any] ?? [:])
    }

    static func topLabel(_ frame: [String: Any]) -> String? {
        (frame["top"] as? [[String: Any]])?.first?["label"] as? String
    }

    /// Runs camera --input FILE --format json on `bytes` written to a file.
    static func classifyStream(_ bytes: [UInt8], _ extra: [String] = []) throws -> (CommandResult, String) {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/stream.mjpeg"
        TestImages.write(bytes, to: path)
        return (try runPlantLeaf(["camera", "--input", path, "--format", "json"] + extra, timeLimit: 120), path)
    }

    @Test func ffmpegStreamOfALeafIsClassifiedToTheEnd() throws {
        // ffmpeg re-encodes the leaf as 20 frames of a 10 fps motion-JPEG stream into the pipe.
        // Its first frame can take longer than the default 5 s frame time-out when it starts cold
        // beside the rest of the suite; this test is about the stream, not the time-out.
        let result = try runPlantLeafInShell(#"ffmpeg -v error -loop 1 -i "$1" -frames:v 20 -r 10 -q:v 2 -f mjpeg - | "$0" camera --input - --format json --timeout 60"#,
                                             [Self.appleScab], timeLimit: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let (frames, summary) = Self.records(result.stdout)
        #expect(!frames.isEmpty)
        for frame in frames {
            #expect(Self.topLabel(frame) == "Apple___Apple_scab")
            #expect((frame["time"] as? String)?.wholeMatch(of: try Regex(Self.timePattern)) != nil)
        }
        #expect(summary["captured"] as? Int == 20)
        #expect(summary["stream_ended"] as? Bool == true)
        // Every frame was either classified or replaced by a newer one before inference took it;
        // the last one always gets classified.
        #expect((summary["classified"] as? Int ?? 0) + (summary["superseded"] as? Int ?? 0) == 20)
        #expect(frames.last?["frame"] as? Int == 20)
        #expect(result.stderrLines.first == "plantleaf camera: standard input: motion-JPEG stream, crop center, frames up to 16 MiB")
        #expect(result.stderrLines.last?.hasSuffix("; the stream ended") == true)
    }

    @Test func multipartStreamWithGarbageBetweenFrames() throws {
        let apple = try Self.bytes(Self.appleScab), tomato = try Self.bytes(Self.tomatoHealthy)
        let header = Array("HTTP/1.0 200 OK\r\nContent-Type: multipart/x-mixed-replace; boundary=leaf\r\n\r\n".utf8)
        func part(_ jpeg: [UInt8]) -> [UInt8] {
            Array("--leaf\r\nContent-Type: image/jpeg\r\nContent-Length: \(jpeg.count)\r\n\r\n".utf8) + jpeg + Array("\r\n".utf8)
        }
        let garbage = Array("this is not a frame \u{1}\u{2}".utf8)
        let stream = header + part(apple) + garbage + part(tomato)
        let (result, _) = try Self.classifyStream(stream)
        #expect(result.status == 0, "\(result.stderr)")
        let (frames, summary) = Self.records(result.stdout)
        #expect(summary["captured"] as? Int == 2)
        #expect(summary["skipped_bytes"] as? Int == stream.count - apple.count - tomato.count)
        #expect(summary["broken"] as? Int == 0)
        #expect(Self.topLabel(frames.last ?? [:]) == "Tomato___healthy")
    }

    @Test func streamCutMidFrameEndsCleanly() throws {
        let apple = try Self.bytes(Self.appleScab), tomato = try Self.bytes(Self.tomatoHealthy)
        let (result, path) = try Self.classifyStream(apple + Array(tomato.prefix(1000)))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderrLines.contains("plantleaf camera: \(path): stream ended inside a frame (1000 bytes): dropped"))
        let (frames, summary) = Self.records(result.stdout)
        #expect(frames.count == 1 && Self.topLabel(frames[0]) == "Apple___Apple_scab")
        #expect(summary["broken"] as? Int == 1 && summary["captured"] as? Int == 1 && summary["stream_ended"] as? Bool == true)
    }

    @Test func frameCutOffByTheNextIsReportedAndTheNextClassified() throws {
        let apple = try Self.bytes(Self.appleScab), tomato = try Self.bytes(Self.tomatoHealthy)
        let (result, path) = try Self.classifyStream(Array(apple.prefix(3000)) + tomato)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderrLines.contains("plantleaf camera: \(path): damaged frame dropped: frame cut off after 3000 bytes (a new frame started)"))
        let (frames, summary) = Self.records(result.stdout)
        #expect(frames.map { Self.topLabel($0) } == ["Tomato___healthy"])
        #expect(summary["broken"] as? Int == 1)
    }

    @Test func frameOverTheSizeLimitIsDroppedAndTheNextClassified() throws {
        // 17 MiB of APP2 segments: a frame past the 16 MiB limit that never needs holding whole.
        var big: [UInt8] = [0xFF, 0xD8]
        for _ in 0..<272 { big += [0xFF, 0xE2, 0xFF, 0xFF] + [UInt8](repeating: 0x55, count: 65533) }
        big += [0xFF, 0xD9]
        let (result, path) = try Self.classifyStream(big + (try Self.bytes(Self.tomatoHealthy)))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderrLines.contains("plantleaf camera: \(path): frame over the 16777216-byte limit: dropped"))
        let (frames, summary) = Self.records(result.stdout)
        #expect(frames.map { Self.topLabel($0) } == ["Tomato___healthy"])
        #expect(summary["oversized"] as? Int == 1 && summary["captured"] as? Int == 1)
    }

    /// A leaf written into a pipe every 50 ms, as a camera would, until plantleaf is done.
    static let feeder = #"(while :; do cat "$2" || exit; sleep 0.05; done) | "$0" camera --input - --format json"#
    /// Shell functions: `lines FILE` counts its lines (0 when missing); `await_lines FILE N` waits
    /// (120 s at most, for slow emulated runs) until FILE has N lines.
    static let lineWaiting = #"lines() { n=$(wc -l < "$1" 2>/dev/null); echo "${n:-0}"; }; "#
        + #"await_lines() { i=0; while [ "$(lines "$1")" -lt "$2" ] && [ $i -lt 600 ]; do sleep 0.2; i=$((i+1)); done; }; "#

    /// A camera is known by its name in the journal (and so on the history page): --name's, or
    /// for standard input "Camera", never "stdin"; a name with a control character is refused.
    @Test func aCameraIsKnownByItsNameNeverStdin() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let journal = folder + "/journal.sqlite"
        let script = #"cat "$1" "$1" | "$0" camera --input - --format json --journal "$2" "${@:3}" >/dev/null"#
        #expect(try runPlantLeafInShell(script, [Self.appleScab, journal, "--name", "Greenhouse 1"]).status == 0)
        #expect(try runPlantLeafInShell(script, [Self.appleScab, journal]).status == 0)
        let csv = try runPlantLeaf(["journal", "export", "--journal", journal, "--format", "csv"])
        // Each run read one frame or both (a frame that arrives while one is read supersedes it).
        let sources = csv.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[2] }
        #expect(sources.first == "Greenhouse 1" && sources.last == "Camera" && Set(sources) == ["Greenhouse 1", "Camera"], "\(csv.stdout)")
        let refused = try runPlantLeaf(["camera", "--input", "-", "--name", "Bench\u{1B}[2J"])
        #expect(refused.status == 2 && refused.stderr.hasPrefix("plantleaf camera: --name must be 1 to 64 characters with no control characters"),
                "\(refused.stderr)")
        let empty = try runPlantLeaf(["camera", "--input", "-", "--name", ""])
        #expect(empty.stderr == "plantleaf camera: --name must be 1 to 64 characters with no control characters, got '' (see plantleaf camera --help)\n")
    }

    @Test func logLinesAreWholeAfterSIGKILL() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let log = folder + "/camera.jsonl", journalPath = folder + "/journal.sqlite"
        let result = try runPlantLeafInShell(Self.lineWaiting + Self.feeder + #" --log "$1" --journal "$3" >/dev/null 2>&1 & pid=$!; await_lines "$1" 3; "#
                                             + #"kill -KILL $pid; wait $pid; echo "rc=$?""#, [log, Self.appleScab, journalPath], timeLimit: 240)
        #expect(result.stdout.contains("rc=137"), "\(result.stdout) \(result.stderr)")
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n")
        #expect(lines.count >= 3)
        for line in lines {
            let record = try #require(jsonObject(String(line)), "not a whole JSON line: \(line)")
            #expect(Self.topLabel(record) == "Apple___Apple_scab")
            #expect((record["time"] as? String)?.wholeMatch(of: try Regex(Self.timePattern)) != nil)
        }
        // The journal opens after the kill and holds every reading it committed, in order: the
        // log's first readings (its writer may not have written the last few queued, which the
        // log has), and at most one past the log's last line (the one whose line was being written).
        let journal = try Journal(path: journalPath, readOnly: true)
        let times = try journal.readings(Journal.Selection()).map { $0.record.time }
        let logTimes = lines.map { jsonObject(String($0))?["time"] as? String }
        #expect(times.count <= logTimes.count + 1, "\(times.count) readings, \(logTimes.count) lines")
        #expect(Array(times.prefix(logTimes.count)) == Array(logTimes.prefix(times.count)))
    }

    @Test func sighupReopensTheLogForLogrotate() throws {
        let directory = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(directory) }
        let log = directory + "/camera.jsonl"
        let script = Self.lineWaiting + Self.feeder + #" --log "$1" >/dev/null 2>"$1.err" & pid=$!; await_lines "$1" 1; "#
            + #"mv "$1" "$1.1"; kill -HUP $pid; await_lines "$1" 1; kill -TERM $pid; wait $pid; echo "rc=$?""#
        let result = try runPlantLeafInShell(script, [log, Self.appleScab], timeLimit: 300)
        #expect(result.stdout.contains("rc=0"), "\(result.stdout) \((try? String(contentsOfFile: log + ".err", encoding: .utf8)) ?? "")")
        for path in [log + ".1", log] {
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            #expect(!lines.isEmpty, "\(path) has no records")
            #expect(lines.allSatisfy { jsonObject(String($0)) != nil })
        }
    }

    @Test func everyIntervalClassifiesOneFreshFramePerTick() throws {
        let result = try runPlantLeafInShell(Self.feeder + " --every 1s --frames 3", ["", Self.appleScab], timeLimit: 240)
        #expect(result.status == 0, "\(result.stderr)")
        let (frames, summary) = Self.records(result.stdout)
        #expect(frames.count == 3 && summary["classified"] as? Int == 3)
        let sequence = frames.compactMap { $0["frame"] as? Int }
        #expect(sequence == sequence.sorted() && Set(sequence).count == sequence.count)
        // Ticks 1 s apart, each taking a frame captured after it: the third frame is at least
        // 2 s after the run began, the first at most a little after (however slow the machine).
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let times = frames.compactMap { ($0["time"] as? String).flatMap(parser.date(from:)) }
        #expect(times.count == 3 && times[2].timeIntervalSince(times[0]) >= 1.4, "\(times)")
    }

    @Test func inputRefusesDeviceOptionsAndWhatIsNotAStream() throws {
        let withDevice = try runPlantLeaf(["camera", "--input", "-", "--device", "/dev/video0"])
        #expect(withDevice.status == 2)
        #expect(withDevice.stderr == "plantleaf camera: --device is for V4L2 devices and cannot be used with --input (see plantleaf camera --help)\n")
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let notAStream = try runPlantLeaf(["camera", "--input", folder], timeLimit: 60)
        #expect(notAStream.status == 2)
        #expect(notAStream.stderrLines.last == "plantleaf camera: \(folder): cannot open: not a file, pipe or socket")
        let missing = try runPlantLeaf(["camera", "--input", folder + "/none.mjpeg"], timeLimit: 60)
        #expect(missing.status == 2)
        #expect(missing.stderrLines.last == "plantleaf camera: \(folder)/none.mjpeg: cannot open: no such file or directory")
    }

    @Test func everyTakesDurationsWithUnitsInItsRange() throws {
        for (value, message) in [("0s", "--every must be from 0.1 s to 86400 s, got 0s"), ("2d", "--every must be a duration such as 30s, 5m, 1h or 500ms, got '2d'"),
                                 ("25h", "--every must be from 0.1 s to 86400 s, got 25h"), ("abc", "--every must be a duration such as 30s, 5m, 1h or 500ms, got 'abc'")] {
            let result = try runPlantLeaf(["camera", "--every", value])
            #expect(result.status == 2)
            #expect(result.stderr == "plantleaf camera: \(message) (see plantleaf camera --help)\n")
        }
    }

    @Test func unwritableLogIsASetupError() throws {
        let result = try runPlantLeaf(["camera", "--input", Self.appleScab, "--log", "/nonexistent/folder/camera.jsonl"], timeLimit: 60)
        #expect(result.status == 2)
        #expect(result.stderrLines.last == "plantleaf camera: --log /nonexistent/folder/camera.jsonl: no such file or directory")
    }

    /// Saved frames never overwrite: not a file a symlink named like a frame points to, not an
    /// earlier run's frames in the same folder; and any label makes a valid file name.
    @Test func savedFramesNeverOverwriteOrFollowSymlinks() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let stream = folder + "/stream.mjpeg"
        TestImages.write(try Self.bytes(Self.appleScab), to: stream)
        let frames = folder + "/frames"
        #expect(mkdir(frames, 0o755) == 0)
        let precious = folder + "/precious.txt"
        TestImages.write(Array("keep me".utf8), to: precious)
        #expect(symlink(precious, frames + "/frame-000001-Apple___Apple_scab.jpg") == 0)
        for _ in 0..<2 {
            let result = try runPlantLeaf(["camera", "--input", stream, "--format", "json", "--save-frames", frames], timeLimit: 120)
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(try String(contentsOfFile: precious, encoding: .utf8) == "keep me")
        let names = try FileManager.default.contentsOfDirectory(atPath: frames).sorted()
        #expect(names == ["frame-000001-Apple___Apple_scab-2.jpg", "frame-000001-Apple___Apple_scab-3.jpg",
                          "frame-000001-Apple___Apple_scab.jpg"], "\(names)")
        #expect(try Self.bytes(frames + "/frame-000001-Apple___Apple_scab-2.jpg").starts(with: [0xFF, 0xD8]))

        // A 90-character CJK label is 270 bytes, over a file name's 255.
        var labels = try String(contentsOfFile: TestPaths.labels, encoding: .utf8).split(separator: "\n").map(String.init)
        let scab = try #require(labels.firstIndex(of: "Apple___Apple_scab"))
        labels[scab] = String(repeating: "葉", count: 90)
        let labelFile = folder + "/labels.txt"
        TestImages.write(Array((labels.joined(separator: "\n") + "\n").utf8), to: labelFile)
        let long = try runPlantLeaf(["camera", "--input", stream, "--format", "json", "--labels", labelFile, "--save-frames", folder + "/long"],
                                    timeLimit: 120)
        #expect(long.status == 0, "\(long.stderr)")
        let saved = try FileManager.default.contentsOfDirectory(atPath: folder + "/long")
        #expect(saved.count == 1 && saved[0].utf8.count <= 255, "\(saved)")
    }

    /// The log holds whole records only: a symlink in its place is refused, and a record cut
    /// short by a file-size limit is taken back.
    @Test func logHoldsWholeRecordsOnly() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let stream = folder + "/stream.mjpeg"
        TestImages.write(try Self.bytes(Self.appleScab) + Self.bytes(Self.tomatoHealthy), to: stream)
        let target = folder + "/elsewhere.jsonl"
        #expect(symlink(target, folder + "/link.jsonl") == 0)
        let linked = try runPlantLeaf(["camera", "--input", stream, "--format", "json", "--log", folder + "/link.jsonl"])
        #expect(linked.status == 2)
        #expect(linked.stderrLines.contains { $0.contains("link.jsonl") && $0.contains("is a symbolic link") }, "\(linked.stderr)")
        #expect(access(target, F_OK) != 0)

        // ulimit -f counts 1024-byte blocks: the first record fits, a long second one cannot.
        let log = folder + "/log.jsonl"
        TestImages.write(Array(repeating: UInt8(ascii: "x"), count: 700) + [UInt8(ascii: "\n")], to: log)
        let limited = try runPlantLeafInShell("ulimit -f 1; exec \"$0\" \"$@\"", ["camera", "--input", stream, "--format", "json", "--every", "0.1",
                                                                                  "--log", log])
        #expect(limited.status != 0)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(text.hasSuffix("\n"), "the log ends inside a record: \(text.suffix(80))")
    }
}
