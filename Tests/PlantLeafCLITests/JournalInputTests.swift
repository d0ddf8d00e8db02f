import Foundation
import Glibc
import PlantLeafCore
import PlantLeafJournal
import PlantLeafSupport
import PlantLeafTestSupport
import Testing

/// What `plantleaf journal` and the commands that keep a journal are given: a log imported twice,
/// a --journal that is no regular file, a log that cannot be read, names with terminal escapes,
/// and times that do not exist. The built binary, end to end.
@Suite struct JournalInputTests {
    static func export(_ journal: String) throws -> [[String: Any]] {
        let exported = try runPlantLeaf(["journal", "export", "--journal", journal])
        return exported.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    @Test func importingALogAgainAddsNothingAndKeepsItsSource() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let log = folder + "/camera.jsonl", journal = folder + "/journal.sqlite"
        try JournalCLITests.cameraLog(count: 60).write(toFile: log, atomically: true, encoding: .utf8)
        let badLine = "1 lines passed over, the first at line 12: not a reading record: verdict is not what a record holds there"
        let first = try runPlantLeaf(["journal", "import", "--journal", journal, "--source", "greenhouse", log])
        #expect(first.stderr == "plantleaf journal: \(log): 60 readings imported into \(journal), 2 events; \(badLine)\n")

        // Again without --source: each reading is recognised whatever name it was imported under,
        // so no second source ("camera") and no second set of events.
        let again = try runPlantLeaf(["journal", "import", "--journal", journal, log])
        #expect(again.status == 0)
        #expect(again.stderr == "plantleaf journal: \(log): 0 readings imported into \(journal), 0 events; "
            + "60 readings already in it passed over; \(badLine)\n")
        #expect(try Self.export(journal).count == 60)
        let events = try runPlantLeaf(["journal", "events", "--journal", journal])
        #expect(events.stdout.split(separator: "\n").count == 2, "\(events.stdout)")
        #expect(try ForeignSQLite.query(journal, "SELECT name FROM sources") == ["greenhouse"])

        // The log grew: its new readings go under the source its old ones were found under, and
        // carry on the event that lasts.
        try JournalCLITests.cameraLog(count: 70).write(toFile: log, atomically: true, encoding: .utf8)
        let grown = try runPlantLeaf(["journal", "import", "--journal", journal, log])
        #expect(grown.stderr == "plantleaf journal: \(log): 10 readings imported into \(journal), 0 events; "
            + "60 readings already in it passed over; \(badLine)\n")
        let readings = try Self.export(journal)
        #expect(readings.count == 70 && readings.allSatisfy { $0["source"] as? String == "greenhouse" })

        // An export names its source: read back into the same journal, every line is known.
        let exportFile = folder + "/export.jsonl"
        try runPlantLeaf(["journal", "export", "--journal", journal]).stdout.write(toFile: exportFile, atomically: true, encoding: .utf8)
        let roundTrip = try runPlantLeaf(["journal", "import", "--journal", journal, exportFile])
        #expect(roundTrip.stderr == "plantleaf journal: \(exportFile): 0 readings imported into \(journal), 0 events; 70 readings already in it passed over\n")

        // The same time with other content is another reading.
        let other = folder + "/other.jsonl"
        try JournalCLITests.cameraLog(count: 3).replacingOccurrences(of: "0.875", with: "0.5").write(toFile: other, atomically: true, encoding: .utf8)
        let different = try runPlantLeaf(["journal", "import", "--journal", journal, "--source", "bench", other])
        #expect(different.stderr.hasPrefix("plantleaf journal: \(other): 3 readings imported into \(journal), "), "\(different.stderr)")
    }

    @Test func aJournalThatIsNoRegularFileIsRefusedAtOnce() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let fifo = folder + "/journal.sqlite"
        #expect(mkfifo(fifo, 0o600) == 0)
        let remedy = "; give a --journal FILE that is a regular file, or a path where nothing is yet"
        // No writer ever comes: a reader that opened it would wait until the time limit.
        for action in ["export", "events"] {
            let result = try runPlantLeaf(["journal", action, "--journal", fifo], timeLimit: 30)
            #expect(result.status == 2 && result.stdout.isEmpty)
            #expect(result.stderr == "plantleaf journal: journal \(fifo) is a FIFO (named pipe), not a regular file\(remedy)\n")
        }
        let folderResult = try runPlantLeaf(["journal", "export", "--journal", folder])
        #expect(folderResult.stderr == "plantleaf journal: journal \(folder) is a directory\(remedy)\n")

        for device in ["/dev/null", "/dev/full", "/dev/zero"] {
            let sideFiles = ["-journal", "-wal", "-shm"].map { device + $0 }
            for side in sideFiles where access(side, F_OK) == 0 { unlink(side) }
            let read = try runPlantLeaf(["journal", "export", "--journal", device], timeLimit: 30)
            #expect(read.status == 2)
            #expect(read.stderr == "plantleaf journal: journal \(device) is a character device, not a regular file\(remedy)\n")
            let camera = try JournalCLITests.camera(journal: device)
            #expect(camera.status == 0 && camera.stdout.contains("\"verdict\": \"diagnosis\""))
            #expect(JournalCLITests.journalLines(camera)
                    == ["plantleaf camera: journal \(device) is a character device, not a regular file\(remedy); readings go on without it"])
            #expect(sideFiles.allSatisfy { access($0, F_OK) != 0 }, "side files left beside \(device)")
        }
    }

    /// SQLite gives the write-ahead log and its index the journal's own mode, whatever the umask.
    @Test func theSideFilesHaveTheJournalsMode() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/journal.sqlite"
        _ = try Journal(path: path)
        chmod(path, 0o640)
        let previous = umask(0)
        defer { umask(previous) }
        let journal = try Journal(path: path)
        try journal.insert(ReadingRecord(frame: 1, time: "2026-12-02T10:00:00.000+01:00", verdict: .uncertain, top: [],
                                         timings: .init(prepare: 1, invoke: 1)),
                           source: "/dev/video0", time: try #require(JournalTime(iso8601: "2026-12-02T10:00:00.000+01:00")))
        for side in ["-wal", "-shm"] {
            var status = stat()
            #expect(stat(path + side, &status) == 0)
            #expect(status.st_mode & 0o777 == 0o640, "\(side): \(String(status.st_mode & 0o777, radix: 8))")
        }
    }

    @Test func aLogThatCannotBeReadIsExitTwoInOneLine() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let journal = folder + "/journal.sqlite"
        let logs = folder + "/logs"
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: false)
        let directory = try runPlantLeaf(["journal", "import", "--journal", journal, logs])
        #expect(directory.status == 2 && directory.stdout.isEmpty)
        #expect(directory.stderr == "plantleaf journal: \(logs): cannot read it: is a directory\n")
        let device = try runPlantLeaf(["journal", "import", "--journal", journal, "/dev/zero"], timeLimit: 30)
        #expect(device.status == 2)
        #expect(device.stderr == "plantleaf journal: /dev/zero: cannot read it: is a character device, not a regular file\n")

        let locked = folder + "/locked.jsonl"
        try JournalCLITests.cameraLog(count: 5).write(toFile: locked, atomically: true, encoding: .utf8)
        chmod(locked, 0)
        let unreadable = try runPlantLeafUnprivileged(["journal", "import", "--journal", journal, locked])
        #expect(unreadable.status == 2)
        #expect(unreadable.stderr == "plantleaf journal: \(locked): cannot read it: permission denied\n")
    }

    /// A source name and a label come from command lines and files: `events` and a CSV export show
    /// their control characters as \xHH, never raw to the terminal; JSON keeps them exact.
    @Test func terminalEscapesInNamesAreShownEscaped() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let journal = folder + "/journal.sqlite", log = folder + "/hostile.jsonl"
        let source = "\u{1B}]0;owned\u{07}cam\u{202E}", label = "Tomato___Early\u{1B}[2J_blight"
        let lines = (0..<3).map { minute in
            let record = ReadingRecord(frame: minute, time: "2026-12-02T10:0\(minute):00.000+01:00", verdict: .diagnosis,
                                       top: [ScoredClass(index: 2, label: label, score: 0.875)], timings: .init(prepare: 1, invoke: 2))
            return String(record.json.dropLast()) + ", \"source\": \(JSONObject.quote(source))}"
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: true, encoding: .utf8)
        let imported = try runPlantLeaf(["journal", "import", "--journal", journal, log])
        #expect(imported.status == 0, "\(imported.stderr)")

        let escapedSource = "\\x1b]0;owned\\x07cam\\xe2\\x80\\xae"
        let events = try runPlantLeaf(["journal", "events", "--journal", journal])
        #expect(!events.stdout.contains("\u{1B}") && !events.stdout.contains("\u{07}") && !events.stdout.contains("\u{202E}"))
        #expect(events.stdout.contains("  \(escapedSource)  Tomato — Early\\x1b[2J blight  (problem)"), "\(events.stdout)")

        let csv = try runPlantLeaf(["journal", "export", "--journal", journal, "--format", "csv"])
        #expect(!csv.stdout.contains("\u{1B}") && !csv.stdout.contains("\u{07}"))
        #expect(csv.stdout.split(separator: "\n").dropFirst().first?.contains(",\(escapedSource),diagnosis,,Tomato___Early\\x1b[2J_blight,0.875,") == true,
                "\(csv.stdout)")
        let json = try Self.export(journal)
        #expect(json.first?["source"] as? String == source)
    }

    @Test func timesThatDoNotExistAreRefused() throws {
        #expect(JournalTime(iso8601: "2026-02-31") == nil && JournalTime(iso8601: "2026-02-29T10:00:00Z") == nil)
        #expect(JournalTime(iso8601: "2028-02-29")?.iso8601 == "2028-02-29T00:00:00.000+00:00")
        #expect(JournalTime(iso8601: "2026-12-31T23:59:59.999+14:00") != nil && JournalTime(iso8601: "2026-01-01T00:00:00-18:00") != nil)
        #expect(JournalTime(iso8601: "2026-12-02T06:40:00+99:99") == nil && JournalTime(iso8601: "2026-12-02T06:40:00-18:30") == nil)
        for (option, value) in [("--since", "2026-02-31"), ("--until", "2026-04-31T10:00:00Z"), ("--since", "2026-12-02T06:40:00+99:99"),
                                ("--since", "2026-12-02T06:40:00+18:01"), ("--since", "2026-12-02T06:40:00+05:60")] {
            let result = try runPlantLeaf(["journal", "export", "--journal", "/nonexistent/journal.sqlite", option, value])
            #expect(result.status == 2)
            #expect(result.stderr == "plantleaf journal: \(option) must be a time: 2026-12-07T01:05 (this machine's time zone), today, yesterday, 2h or 30m or 3d ago, "
                    + "or ISO 8601 with its offset, 2026-12-07T01:05:00+02:00; got '\(value)' (see plantleaf journal --help)\n")
        }
    }
}
