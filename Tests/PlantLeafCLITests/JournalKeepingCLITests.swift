import Foundation
import Glibc
import PlantLeafCore
import PlantLeafJournal
import PlantLeafTestSupport
import Testing

/// The journal kept by the built binary: a blocked view imported is a gap in its event, an
/// upload after a page was read lists as an upload, and a journal deleted or moved while serve
/// runs starts anew at its path, as SIGHUP has it opened again.
@Suite struct JournalKeepingCLITests {
    /// Blight for 5 minutes, then 2 minutes of a cat in front of it (no leaf), then the blight again:
    /// one event from the first reading, with its 2 minutes of blocked view.
    @Test func aBlockedViewImportedIsAGapInItsEvent() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        var lines: [String] = []
        for minute in 0..<10 {
            let time = JournalTime(milliseconds: 1_796_202_930_000 + Int64(minute) * 60_000, offsetMinutes: 60)
            let cat = (5..<7).contains(minute)
            lines.append(ReadingRecord(frame: minute, time: time.iso8601, verdict: cat ? .noLeaf : .diagnosis, reason: cat ? .unlikeLeaves : nil,
                                       top: [ScoredClass(index: 2, label: "Tomato___Early_blight", score: cat ? 0.25 : 0.875)],
                                       timings: .init(prepare: 0.75, invoke: 4.5)).json)
        }
        let log = folder + "/camera.jsonl", journal = folder + "/journal.sqlite"
        try (lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: true, encoding: .utf8)
        let imported = try runPlantLeaf(["journal", "import", "--journal", journal, "--source", "bench1", log])
        #expect(imported.status == 0 && imported.stderr.hasSuffix("10 readings imported into \(journal), 1 events\n"), "\(imported.stderr)")
        // Times are written on the reader's clock: a reader an hour east of UTC, as the log was.
        let events = try runPlantLeaf(["journal", "events", "--journal", journal], environment: ["TZ": "CET-1"])
        let eventLines = events.stdout.split(separator: "\n")
        #expect(eventLines.count == 1, "\(events.stdout)")
        #expect(eventLines.first?.hasPrefix("2026-12-02T10:15:30.000+01:00  lasting, ") == true)
        #expect(eventLines.first?.hasSuffix("  bench1  Tomato — Early blight  (problem)  (view blocked 2 min)") == true, "\(events.stdout)")
    }

    /// The history read once (its reader then knows no source), then a photo uploaded: the
    /// history lists it as an upload, and the page offers the uploads' view.
    @Test func anUploadAfterAPageReadListsAsAnUpload() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let server = try TestServer(["--jobs", "1", "--journal", folder + "/journal.sqlite"])
        let empty = try ServeHTTPTests.get(server, "/api/history")
        #expect(empty.status == 200 && (jsonObject(empty.text)?["readings"] as? [Any])?.isEmpty == true, "\(empty.text)")
        #expect(try ServeHTTPTests.get(server, "/api/events").status == 200)
        let upload = try ServeHTTPTests.upload(server, try ServeHTTPTests.leafBytes())
        #expect(upload.status == 200, "\(upload.text)")
        let history = try ServeHTTPTests.get(server, "/api/history")
        let readings = try #require(jsonObject(history.text)?["readings"] as? [[String: Any]], "\(history.text)")
        #expect(readings.map { $0["source"] as? String } == ["upload"], "\(history.text)")
        let uploads = try ServeHTTPTests.get(server, "/api/history?source=upload")
        #expect((jsonObject(uploads.text)?["readings"] as? [Any])?.count == 1, "\(uploads.text)")
        #expect(try ServeHTTPTests.get(server, "/history").text.contains("href=\"/history?source=upload\""))
    }

    /// The journal deleted while serve runs: the next upload's write says so in one line and a
    /// new journal at the path has it. Moved away with SIGHUP: serve says it opens it again,
    /// and the next upload is in a new journal at the path while the moved file keeps its own.
    @Test func aJournalDeletedOrMovedWhileServingStartsAnewAtItsPath() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/journal.sqlite", moved = folder + "/moved.sqlite"
        let server = try TestServer(["--jobs", "1", "--journal", path])
        let leaf = try ServeHTTPTests.leafBytes()
        func uploadAndCount() throws -> Int {
            #expect(try ServeHTTPTests.upload(server, leaf).status == 200)
            // The history waits for the writes before it.
            let history = try ServeHTTPTests.get(server, "/api/history")
            return (jsonObject(history.text)?["readings"] as? [Any])?.count ?? -1
        }
        #expect(try uploadAndCount() == 1)
        unlink(path)
        #expect(try uploadAndCount() == 1)
        let line = "plantleaf serve: journal \(path) was deleted or moved away; a new journal starts there\n"
        #expect(server.stderr(containing: line).contains(line), "\(server.stderr)")
        #expect(try Journal(path: path, readOnly: true).readingCount() == 1)

        rename(path, moved)
        kill(try #require(server.servePID), SIGHUP)
        let reopened = "plantleaf serve: SIGHUP: journal \(path) is opened again before the next write\n"
        #expect(server.stderr(containing: reopened).contains(reopened), "\(server.stderr)")
        #expect(try uploadAndCount() == 1)
        #expect(try Journal(path: moved, readOnly: true).readingCount() == 1)
        #expect(server.isRunning)
    }

    /// camera without --log: SIGHUP leaves it reading (it has the journal opened again) rather
    /// than ending it; the journal moved away keeps its readings and a new one starts at the path.
    @Test func cameraReadsOnThroughSIGHUPAndAJournalMovedAway() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let output = folder + "/readings.jsonl", journal = folder + "/journal.sqlite"
        let script = CameraStreamTests.lineWaiting + CameraStreamTests.feeder + #" --journal "$3" >"$1" 2>"$1.err" & pid=$!; await_lines "$1" 2; "#
            + #"mv "$3" "$3.moved"; kill -HUP $pid; n=$(lines "$1"); await_lines "$1" $((n + 3)); kill -TERM $pid; wait $pid; echo "rc=$?""#
        let result = try runPlantLeafInShell(script, [output, CameraStreamTests.appleScab, journal], timeLimit: 300)
        let stderr = (try? String(contentsOfFile: output + ".err", encoding: .utf8)) ?? ""
        #expect(result.stdout.contains("rc=0"), "\(result.stdout) \(stderr)")
        #expect(stderr.contains("plantleaf camera: journal \(journal) was deleted or moved away; a new journal starts there\n"), "\(stderr)")
        #expect(try Journal(path: journal + ".moved", readOnly: true).readingCount() >= 2)
        let anew = try Journal(path: journal, readOnly: true)
        #expect(try anew.readingCount() >= 3)
        // The one leaf made one event from the first reading on: it carries on in the new journal
        // from there (the moved file has it too once it was written before the move).
        let first = try #require(jsonObject(String(try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")[0]))?["time"] as? String)
        #expect(try anew.lastingEvent(source: "Camera")?.start.iso8601 == first)
        let moved = try Journal(path: journal + ".moved", readOnly: true).events(Journal.Selection())
        #expect(moved.allSatisfy { $0.start.iso8601 == first } && moved.count <= 1)
        #expect(try anew.events(Journal.Selection()).count == 1)
    }
}
