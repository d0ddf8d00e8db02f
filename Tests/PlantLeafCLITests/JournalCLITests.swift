import Foundation
@testable import PlantLeafCommandLine
import PlantLeafCore
import PlantLeafJournal
import PlantLeafTestSupport
import Testing

/// `plantleaf journal` and the journal camera keeps: a --log imported and exported round trip,
/// and a journal that cannot be kept is one line while the camera reads on.
@Suite struct JournalCLITests {
    /// A camera's --log: `count` readings a minute apart, healthy then blight from reading 40 on
    /// (with one odd frame at 20), a summary line and a line that is no record.
    static func cameraLog(count: Int) -> String {
        var lines: [String] = []
        for minute in 0..<count {
            let label = minute >= 40 || minute == 20 ? "Tomato___Early_blight" : "Tomato___healthy"
            let time = JournalTime(milliseconds: 1_796_202_930_000 + Int64(minute) * 60_000, offsetMinutes: 60)
            lines.append(ReadingRecord(frame: minute, time: time.iso8601, verdict: .diagnosis,
                                       top: [ScoredClass(index: 2, label: label, score: 0.875)], ageMilliseconds: 40.5,
                                       timings: .init(prepare: 0.75, invoke: 4.5)).json)
            if minute == 10 { lines.append("{\"verdict\": 3}") }
        }
        lines.append(#"{"summary": {"classified": 60}}"#)
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func aLogImportsAndExportsRoundTripWithItsEvents() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let log = folder + "/camera.jsonl"
        try Self.cameraLog(count: 60).write(toFile: log, atomically: true, encoding: .utf8)
        // Without --journal: the default path under XDG_STATE_HOME, its folder made.
        let imported = try runPlantLeaf(["journal", "import", "--source", "greenhouse", log], environment: ["XDG_STATE_HOME": folder + "/state"])
        let journal = folder + "/state/plantleaf/journal.sqlite"
        #expect(imported.status == 0)
        #expect(imported.stderr == "plantleaf journal: \(log): 60 readings imported into \(journal), 2 events; 1 lines passed over, "
            + "the first at line 12: not a reading record: verdict is not what a record holds there\n")

        // Its times at the reader's offset (TZ, here UTC+1, as the camera's log was written).
        let events = try runPlantLeaf(["journal", "events", "--journal", journal], environment: ["TZ": "CET-1"])
        // Newest first; the one blight frame at reading 20 made none (it held for 1 reading of 3).
        let eventLines = events.stdout.split(separator: "\n").map(String.init)
        #expect(eventLines.count == 2)
        #expect(eventLines.first?.hasPrefix("2026-12-02T10:55:30.000+01:00  lasting, ") == true)
        #expect(eventLines.first?.hasSuffix("  greenhouse  Tomato — Early blight  (problem)") == true)
        #expect(eventLines.last == "2026-12-02T10:15:30.000+01:00  until 2026-12-02T10:55:30.000+01:00, 40 min  greenhouse  Tomato — healthy")
        // A reader elsewhere reads the same events on their own clock; and picks them as typed.
        let inCairo = try runPlantLeaf(["journal", "events", "--journal", journal, "--until", "2026-12-02T11:30"], environment: ["TZ": "EET-2"])
        #expect(inCairo.stdout.split(separator: "\n").last == "2026-12-02T11:15:30.000+02:00  until 2026-12-02T11:55:30.000+02:00, 40 min  greenhouse  Tomato — healthy")
        #expect(inCairo.stdout.split(separator: "\n").count == 1, "the blight began at 11:55 in Cairo: \(inCairo.stdout)")
        let lastDays = try runPlantLeaf(["journal", "events", "--journal", journal, "--since", "2h"])
        #expect(lastDays.status == 0 && lastDays.stdout.isEmpty, "the log's events are from 2026-12-02")

        let exported = try runPlantLeaf(["journal", "export", "--journal", journal])
        #expect(exported.status == 0 && exported.stdout.split(separator: "\n").count == 60)
        let exportFile = folder + "/export.jsonl"
        try exported.stdout.write(toFile: exportFile, atomically: true, encoding: .utf8)
        let second = folder + "/second.sqlite"
        let again = try runPlantLeaf(["journal", "import", "--journal", second, exportFile])
        #expect(again.stderr == "plantleaf journal: \(exportFile): 60 readings imported into \(second), 2 events\n")
        let reexported = try runPlantLeaf(["journal", "export", "--journal", second])
        #expect(reexported.stdout == exported.stdout)

        let csv = try runPlantLeaf(["journal", "export", "--journal", journal, "--format", "csv", "--since", "2026-12-02T11:10:00+01:00"])
        #expect(csv.stdout.split(separator: "\n").first == "id,time,source,verdict,reason,label,score,leaf_likeness,prepare_ms,invoke_ms,answer_from,taught")
        #expect(csv.stdout.split(separator: "\n").dropFirst().first == "56,2026-12-02T11:10:30.000+01:00,greenhouse,diagnosis,,Tomato___Early_blight,0.875,,0.75,4.5,model,")
        #expect(csv.stdout.split(separator: "\n").count == 1 + 5)
    }

    /// A journal damaged by hand: a reading's offset of 9e15 minutes and an event's start at
    /// -9.2e18 ms (which made export and events die of arithmetic overflow) are each one line
    /// naming the row; the other rows are still written, and the exit status is 1.
    @Test func aDamagedRowIsOneLineAndTheOthersAreStillOut() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let log = folder + "/camera.jsonl", journal = folder + "/journal.sqlite"
        try Self.cameraLog(count: 60).write(toFile: log, atomically: true, encoding: .utf8)
        #expect(try runPlantLeaf(["journal", "import", "--journal", journal, "--source", "greenhouse", log]).status == 0)
        try ForeignSQLite.execute(journal, "UPDATE readings SET utc_offset = 9e15 WHERE id = 5; UPDATE events SET start = -9.2e18 WHERE id = 1")

        for format in ["json", "csv"] {
            let exported = try runPlantLeaf(["journal", "export", "--journal", journal, "--format", format])
            #expect(exported.status == 1)
            #expect(exported.stderr == "plantleaf journal: journal \(journal): readings row 5 passed over: its utc_offset holds 9000000000000000, "
                + "which no row can hold (a damaged or hand-edited journal)\n")
            let lines = exported.stdout.split(separator: "\n")
            #expect(lines.count == (format == "csv" ? 1 : 0) + 59)
            #expect(!exported.stdout.contains(#""id": 5,"#) && exported.stdout.contains(#""id": 6,"#) == (format == "json"))
        }
        let events = try runPlantLeaf(["journal", "events", "--journal", journal], environment: ["TZ": "CET-1"])
        #expect(events.status == 1)
        #expect(events.stderr == "plantleaf journal: journal \(journal): events row 1 passed over: its start holds -9200000000000000000, "
            + "which no row can hold (a damaged or hand-edited journal)\n")
        #expect(events.stdout.split(separator: "\n").count == 1 && events.stdout.hasPrefix("2026-12-02T10:55:30.000+01:00  lasting, "))
    }

    /// The line docs/journal.md quotes is the one the command words for such a row.
    @Test func theDocumentedDamagedRowLineIsTheOneSaid() {
        let row = JournalDamagedRow(table: "readings", id: 5, column: "utc_offset", value: "9000000000000000")
        #expect("plantleaf journal: " + EventText.line(.rowPassedOver(path: "/var/lib/plantleaf/journal.sqlite", row: row))
            == "plantleaf journal: journal /var/lib/plantleaf/journal.sqlite: readings row 5 passed over: its utc_offset holds 9000000000000000, which no row can hold (a damaged or hand-edited journal)")
    }

    @Test func wrongArgumentsAreOneLine() throws {
        let none = try runPlantLeaf(["journal"])
        #expect(none.status == 2 && none.stderr == "plantleaf journal: give an action: export, import LOG.jsonl..., or events (see plantleaf journal --help)\n")
        let time = try runPlantLeaf(["journal", "export", "--since", "Tuesday"])
        #expect(time.stderr == "plantleaf journal: --since must be a time: 2026-12-07T01:05 (this machine's time zone), today, yesterday, 2h or 30m or 3d ago, "
                + "or ISO 8601 with its offset, 2026-12-07T01:05:00+02:00; got 'Tuesday' (see plantleaf journal --help)\n")
        let missing = try runPlantLeaf(["journal", "events", "--journal", "/nonexistent/journal.sqlite"])
        #expect(missing.status == 2 && missing.stdout.isEmpty)
        #expect(missing.stderr == "plantleaf journal: no journal at /nonexistent/journal.sqlite (camera and serve make it as they read; --journal FILE names another)\n")
        for command in ["camera", "serve"] {
            let both = try runPlantLeaf([command, "--journal", "/tmp/j.sqlite", "--no-journal"])
            #expect(both.stderr == "plantleaf \(command): --journal FILE and --no-journal do not go together (see plantleaf \(command) --help)\n")
        }
    }

    /// Runs camera on one leaf with the journal `path`, through `wrapper` (a command and its
    /// arguments the binary follows).
    static func camera(journal path: String, wrapper: [String] = [], language: [String] = []) throws -> CommandResult {
        let arguments = ["camera", "--input", TestPaths.appleScabLeaf, "--format", "json", "--journal", path] + language
        guard let command = wrapper.first else { return try runPlantLeaf(arguments, timeLimit: 60) }
        return try runCommand(command, Array(wrapper.dropFirst()) + [TestPaths.binary] + arguments, timeLimit: 60)
    }

    /// The camera's lines on stderr other than its set-up and summary.
    static func journalLines(_ result: CommandResult) -> [String] {
        result.stderrLines.filter { !$0.contains("motion-JPEG stream") && !$0.contains(" frames read, ") && !$0.contains("generalist check skipped") }
    }

    @Test func aJournalThatCannotBeKeptIsOneLineAndTheCameraReadsOn() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let damaged = folder + "/damaged.sqlite"
        try String(repeating: "not a database at all\n", count: 400).write(toFile: damaged, atomically: true, encoding: .utf8)
        let onDamaged = try Self.camera(journal: damaged)
        #expect(onDamaged.status == 0)
        #expect(Self.journalLines(onDamaged) == ["plantleaf camera: journal \(damaged) is not an SQLite database; move it away or give another --journal FILE; readings go on without it"])
        #expect(onDamaged.stdout.contains("\"verdict\": \"diagnosis\""))

        let newer = folder + "/newer.sqlite"
        _ = try Journal(path: newer)
        try ForeignSQLite.execute(newer, "INSERT INTO schema_version(version) VALUES (99)")
        let onNewer = try Self.camera(journal: newer)
        #expect(Self.journalLines(onNewer) == ["plantleaf camera: journal \(newer) has schema 99, newer than this build reads (\(Journal.schemaVersion)); use the newer plantleaf, or give another --journal FILE; readings go on without it"])
        #expect(onNewer.status == 0 && onNewer.stdout.contains("\"verdict\": \"diagnosis\""))
    }

    /// camera says its journal's line in the reader's language, the path and the option as they are.
    @Test func aJournalThatCannotBeKeptIsSaidInTheReadersLanguage() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let damaged = folder + "/damaged.sqlite"
        try String(repeating: "not a database at all\n", count: 400).write(toFile: damaged, atomically: true, encoding: .utf8)
        let result = try Self.camera(journal: damaged, language: ["--lang", "ar"])
        let arabic = try #require(Catalogue(language: "ar"))
        let expected = "plantleaf camera: " + arabic.text("journal.notice.not-kept", ["problem": arabic.text("error.journal.not-a-database", ["path": damaged])
            + arabic["remedy.journal.move-away"]])
        #expect(result.status == 0)
        #expect(result.stderrLines.contains(expected), "\(result.stderr)")
        #expect(expected.contains("دفتر السجل \(damaged)") && expected.contains("--journal FILE"))
    }

    @Test func aReadOnlyJournalIsOneLineAndTheCameraReadsOn() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/journal.sqlite"
        _ = try Journal(path: path)
        chmod(path, 0o444)
        chmod(folder, 0o555)
        defer { chmod(folder, 0o755) }
        // As root, without the capability that lets root write any file.
        let result = try Self.camera(journal: path, wrapper: geteuid() == 0 ? ["/usr/bin/setpriv", "--bounding-set=-dac_override"] : [])
        #expect(result.status == 0)
        #expect(Self.journalLines(result) == ["plantleaf camera: journal \(path) cannot be written (read-only); give a --journal FILE this user can write; readings go on without it"])
        #expect(result.stdout.contains("\"verdict\": \"diagnosis\""))
    }

    /// A journal that can grow no more: a file-size limit (ulimit -f, RLIMIT_FSIZE, which needs
    /// no root) under the journal's size with a picture, SIGXFSZ ignored so the write fails
    /// rather than killing the process. The journal opens, a reading's write fails: one line,
    /// and every reading still reaches stdout.
    @Test func aFileThatCannotGrowIsOneLineAndTheCameraReadsOn() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/journal.sqlite"
        _ = try Journal(path: path)
        // 36 KiB: room for SQLite's 32 KiB shared-memory index, not for the write-ahead log of a
        // reading with its hour's picture; the main file, larger already, is only read.
        let script = #"trap '' XFSZ; ulimit -f 36; exec "$@""#
        let result = try Self.camera(journal: path, wrapper: ["/bin/bash", "-c", script, "bash"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = Self.journalLines(result)
        #expect(lines.count == 1 && lines.first?.hasPrefix("plantleaf camera: journal \(path): ") == true
                && lines.first?.hasSuffix(" failed: disk I/O error; readings go on to the other outputs") == true, "\(lines)")
        #expect(result.stdout.contains("\"verdict\": \"diagnosis\""))
        #expect(try runPlantLeaf(["journal", "export", "--journal", path]).stdout.isEmpty)
    }

    @Test func aFullDiskIsOneLineAndTheCameraReadsOn() throws {
        // A file system of 64 KiB in a mount namespace of its own: root only (the file-size limit
        // above runs everywhere).
        guard geteuid() == 0, (try? runCommand("/usr/bin/unshare", ["-m", "true"]))?.status == 0 else { return }
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let small = folder + "/small"
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: false)
        let script = #"mount -t tmpfs -o size=64k tmpfs "$1" && head -c 60000 /dev/zero > "$1/filler"; shift; exec "$@""#
        let result = try Self.camera(journal: small + "/journal.sqlite", wrapper: ["/usr/bin/unshare", "-m", "sh", "-c", script, "sh", small])
        #expect(result.status == 0)
        #expect(Self.journalLines(result) == ["plantleaf camera: journal \(small)/journal.sqlite: the disk is full; readings go on without it"])
        #expect(result.stdout.contains("\"verdict\": \"diagnosis\""))
    }
}
