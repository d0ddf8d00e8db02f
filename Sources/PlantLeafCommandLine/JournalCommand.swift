import Glibc
import PlantLeafCore
import PlantLeafJournal
import PlantLeafSupport

/// `plantleaf journal export|import|events`: the journal's readings out as JSON lines or CSV, a
/// camera's --log in as history, and the events with their times.
enum JournalCommand: Subcommand {
    static let configuration = CommandConfiguration(
        name: "journal", abstract: "the readings and events camera and serve keep: export, import a --log, events",
        options: JournalCommandOptions.optionTable, helpLabelWidth: 22)

    static let helpIntroduction = """
        USAGE: plantleaf journal export [--since TIME] [--until TIME] [--source NAME] [--format json|csv]
               plantleaf journal import [--source NAME] LOG.jsonl...
               plantleaf journal events [--since TIME] [--source NAME]

        The journal camera and serve keep: every reading, and the events they make (a verdict or
        class that held for --event-readings readings in a row), with the frame that started each.
        export writes the readings on stdout, oldest first; import adds a camera's --log (JSON
        lines; readings the journal holds already and other lines are passed over and counted)
        and makes its events; events lists the events, newest first: since when, until when, and
        what the camera saw.

        OPTIONS:
        """

    static let helpConclusion = """
        A row of a damaged journal that holds what no row can (a time past year 9999, a NULL
        verdict) is passed over with one line naming it; export and events write the others.

        EXIT CODES: 0 done, 1 rows of a damaged journal passed over (the others written),
                    2 usage, or a journal or log that cannot be read or written.
        """

    /// Readings an import commits together: a killed import keeps every batch before.
    static let importBatch = 1000
    /// Readings an export reads at a time.
    static let exportPage = 5000

    static func run(_ arguments: [String], bytes _: [[UInt8]]) -> Int32 {
        let options: JournalCommandOptions
        do {
            options = try JournalCommandOptions.parse(arguments)
        } catch {
            Console.error("plantleaf journal: \(error) (see plantleaf journal --help)")
            return ExitCode.setupFailure
        }
        if options.help {
            Console.out(help)
            return ExitCode.success
        }
        var journalOptions = JournalOptions()
        journalOptions.path = options.journalPath
        guard let path = journalOptions.settings?.path else {
            Console.error("plantleaf journal: neither XDG_STATE_HOME nor HOME is set: give --journal FILE")
            return ExitCode.setupFailure
        }
        do {
            switch options.action {
            case .export: return try export(options, path: path)
            case .events: return try events(options, path: path)
            case .import: return try importLogs(options, path: path)
            }
        } catch {
            Console.error("plantleaf journal: \(Remedy.line(error))")
            return ExitCode.setupFailure
        }
    }

    /// Says each row `journal` passed over in one line; returns whether there were any.
    private static func sayDamagedRows(_ journal: Journal) -> Bool {
        let rows = journal.takeDamagedRows()
        for row in rows { Console.error("plantleaf journal: \(EventText.line(.rowPassedOver(path: journal.path, row: row)))") }
        return !rows.isEmpty
    }

    private static func export(_ options: JournalCommandOptions, path: String) throws(JournalError) -> Int32 {
        let journal = try Journal(path: path, readOnly: true)
        var damaged = sayDamagedRows(journal)
        var selection = Journal.Selection(since: options.since, until: options.until, source: options.source, limit: exportPage)
        if options.format == .csv { Console.out(JournalJSON.csvHeader) }
        while true {
            let page = try journal.readingPage(selection)
            for reading in page.rows { Console.out(options.format == .csv ? JournalJSON.csvRow(reading) : JournalJSON.reading(reading)) }
            damaged = sayDamagedRows(journal) || damaged
            guard let next = page.nextAfter, !Console.stdoutFailed else { break }
            selection.afterID = next
        }
        return damaged ? ExitCode.partialFailure : ExitCode.success
    }

    private static func events(_ options: JournalCommandOptions, path: String) throws(JournalError) -> Int32 {
        let journal = try Journal(path: path, readOnly: true)
        let now = JournalTime.now()
        let events = try journal.events(Journal.Selection(since: options.since, until: options.until, source: options.source))
        let damaged = sayDamagedRows(journal)
        for event in events {
            let what = event.state.label.map { Labels.displayName($0) } ?? String(event.state.verdict.rawValue.map { $0 == "-" ? " " : $0 })
            // Every time at this machine's offset, whatever the camera's was: one clock, the reader's.
            let local = { (time: JournalTime) in JournalTime(milliseconds: time.milliseconds, offsetMinutes: now.offsetMinutes).iso8601 }
            let until = event.end.map { "until \(local($0))" } ?? "lasting"
            let blocked = event.blockedMilliseconds(now: now)
            let gap = blocked > 0 || event.viewBlockedNow
                ? "  (" + Catalogue.english.text(event.viewBlockedNow ? "journal.blocked-now" : "journal.blocked",
                                                 ["duration": TimeText.duration(blocked)]) + ")" : ""
            // A source is a name from a command line or an imported file: shown as labels are, escaped.
            Console.out("\(local(event.start))  \(until), \(TimeText.duration(event.durationMilliseconds(now: now)))  \(TerminalText.neutralised(event.source))  \(what)"
                        + (event.state.isProblem ? "  (problem)" : "") + gap)
        }
        return damaged ? ExitCode.partialFailure : ExitCode.success
    }

    private static func importLogs(_ options: JournalCommandOptions, path: String) throws(JournalError) -> Int32 {
        let journal = try Journal(path: path)
        var follower = EventFollower(readingsToHold: options.eventReadings)
        var status = ExitCode.success
        for logPath in options.logPaths {
            let file: UnsafeMutablePointer<FILE>
            switch openLog(logPath) {
            case .success(let opened): file = opened
            case .failure(let problem):
                Console.error("plantleaf journal: \(logPath): cannot read it: \(problem.reason)")
                status = ExitCode.setupFailure
                continue
            }
            defer { fclose(file) }
            var lines = JSONLines(file: file, maximumBytes: ReadingRecord.maximumBytes)
            var imported = 0, known = 0, events = 0, passedOver = 0, firstProblem: String?
            // The source of this log's readings found in the journal already: the readings after
            // them that name none are that camera's too (a log that grew since it was imported).
            var knownSource: String?
            var pending: [(record: ReadingRecord, ownSource: String?, time: JournalTime)] = []
            func commit() throws(JournalError) {
                try journal.transaction { () throws(JournalError) in
                    for reading in pending {
                        if let source = try journal.sourceOfKnownReading(reading.record, source: reading.ownSource, time: reading.time) {
                            known += 1
                            knownSource = source
                            continue
                        }
                        let source = reading.ownSource ?? options.source ?? knownSource ?? JournalCommandOptions.defaultImportSource
                        try journal.insert(reading.record, source: source, time: reading.time)
                        imported += 1
                        if try follower.follow(reading.record, source: source, time: reading.time, in: journal, picture: { nil }).began {
                            events += 1
                        }
                    }
                }
                pending.removeAll(keepingCapacity: true)
            }
            while let line = lines.next() {
                let problem: String
                switch line {
                case .tooLong: problem = "over \(ReadingRecord.maximumBytes >> 20) MiB"
                case .line(let bytes):
                    switch Result(catching: { () throws(ReadingRecordError) in try ReadingRecord(decoding: bytes) }) {
                    case .success(let record):
                        guard let time = record.time.flatMap(JournalTime.init(iso8601:)) else {
                            problem = "no time (a camera's readings have one)"
                            break
                        }
                        pending.append((record, JSONLines.source(of: bytes), time))
                        if pending.count == importBatch { try commit() }
                        continue
                    case .failure(.summary):
                        continue
                    case .failure(let error):
                        problem = error.description
                    }
                }
                passedOver += 1
                if firstProblem == nil { firstProblem = "line \(lines.lineNumber): \(problem)" }
            }
            try commit()
            // A read that failed part way (an I/O error) has not read the whole log.
            if ferror(file) != 0 {
                Console.error("plantleaf journal: \(logPath): cannot read it: \(SystemError(errno).reason); "
                              + "\(imported) readings before line \(lines.lineNumber + 1) imported into \(path)")
                status = ExitCode.setupFailure
                continue
            }
            var line = "plantleaf journal: \(logPath): \(imported) readings imported into \(path), \(events) events"
            if known > 0 { line += "; \(known) readings already in it passed over" }
            if let firstProblem { line += "; \(passedOver) lines passed over, the first at \(firstProblem)" }
            Console.error(line)
        }
        // The events a log's readings continue are read from the journal: a damaged one is said too.
        _ = sayDamagedRows(journal)
        return status
    }

    /// Opens a log to import: a regular file, or a pipe (`<(zcat old.jsonl.gz)`); a folder, a
    /// device or a socket is refused before it is read (a device such as /dev/zero never ends).
    private static func openLog(_ path: String) -> Result<UnsafeMutablePointer<FILE>, FileReadError> {
        var status = stat()
        guard stat(path, &status) == 0 else { return .failure(.system(SystemError(errno))) }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG || kind == S_IFIFO else { return .failure(.notRegularFile(mode: status.st_mode)) }
        guard let file = fopen(path, "r") else { return .failure(.system(SystemError(errno))) }
        return .success(file)
    }
}
