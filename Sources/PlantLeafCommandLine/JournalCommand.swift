import Glibc
import PlantLeafCore
import PlantLeafJournal

/// `plantleaf journal export|import|events`: the journal's readings out as JSON lines or CSV, a
/// camera's --log in as history, and the events with their times.
enum JournalCommand {
    private static let helpIntroduction = """
        USAGE: plantleaf journal export [--since TIME] [--until TIME] [--source NAME] [--format json|csv]
               plantleaf journal import [--source NAME] LOG.jsonl...
               plantleaf journal events [--since TIME] [--source NAME]

        The journal camera and serve keep: every reading, and the events they make (a verdict or
        class that held for --event-readings readings in a row), with the frame that started each.
        export writes the readings on stdout, oldest first; import adds a camera's --log (JSON
        lines; other lines are passed over and counted) and makes its events; events lists the
        events, newest first: since when, until when, and what the camera saw.

        OPTIONS:
        """

    private static let helpConclusion = """
        EXIT CODES: 0 done, 2 usage, or a journal or log that cannot be read or written.
        """

    static let help: String = {
        let options: String = OptionSpec.helpSection(JournalCommandOptions.optionTable, labelWidth: 22)
        return [helpIntroduction, options, "", helpConclusion].joined(separator: "\n")
    }()

    /// Readings an import commits together: a killed import keeps every batch before.
    static let importBatch = 1000
    /// Readings an export reads at a time.
    static let exportPage = 5000

    static func run(_ arguments: [String]) -> Int32 {
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
            case .export: try export(options, path: path)
            case .events: try events(options, path: path)
            case .import: return try importLogs(options, path: path)
            }
        } catch {
            Console.error("plantleaf journal: \(Remedy.line(error))")
            return ExitCode.setupFailure
        }
        return ExitCode.success
    }

    private static func export(_ options: JournalCommandOptions, path: String) throws(JournalError) {
        let journal = try Journal(path: path, readOnly: true)
        var selection = Journal.Selection(since: options.since, until: options.until, source: options.source, limit: exportPage)
        if options.format == .csv { Console.out(JournalJSON.csvHeader) }
        while true {
            let page = try journal.readings(selection)
            for reading in page { Console.out(options.format == .csv ? JournalJSON.csvRow(reading) : JournalJSON.reading(reading)) }
            guard page.count == exportPage, !Console.stdoutFailed else { return }
            selection.afterID = page.last?.id
        }
    }

    private static func events(_ options: JournalCommandOptions, path: String) throws(JournalError) {
        let journal = try Journal(path: path, readOnly: true)
        let now = JournalTime.now()
        for event in try journal.events(Journal.Selection(since: options.since, until: options.until, source: options.source)) {
            let what = event.state.label.map { Labels.displayName($0) } ?? String(event.state.verdict.rawValue.map { $0 == "-" ? " " : $0 })
            let until = event.end.map { "until \($0.iso8601)" } ?? "lasting"
            let blocked = event.blockedMilliseconds(now: now)
            let gap = blocked > 0 || event.viewBlockedNow
                ? "  (" + Catalogue.english.text(event.viewBlockedNow ? "journal.blocked-now" : "journal.blocked",
                                                 ["duration": TimeText.duration(blocked)]) + ")" : ""
            Console.out("\(event.start.iso8601)  \(until), \(TimeText.duration(event.durationMilliseconds(now: now)))  \(event.source)  \(what)"
                        + (event.state.isProblem ? "  (problem)" : "") + gap)
        }
    }

    private static func importLogs(_ options: JournalCommandOptions, path: String) throws(JournalError) -> Int32 {
        let journal = try Journal(path: path)
        var follower = EventFollower(readingsToHold: options.eventReadings)
        var status = ExitCode.success
        for logPath in options.logPaths {
            guard let file = fopen(logPath, "r") else {
                Console.error("plantleaf journal: \(logPath): cannot read it: \(SystemError(errno).reason)")
                status = ExitCode.setupFailure
                continue
            }
            defer { fclose(file) }
            var lines = JSONLines(file: file, maximumBytes: ReadingRecord.maximumBytes)
            var imported = 0, events = 0, passedOver = 0, firstProblem: String?
            var pending: [(record: ReadingRecord, source: String, time: JournalTime)] = []
            func commit() throws(JournalError) {
                try journal.transaction { () throws(JournalError) in
                    for reading in pending {
                        try journal.insert(reading.record, source: reading.source, time: reading.time)
                        if try follower.follow(reading.record, source: reading.source, time: reading.time, in: journal, picture: { nil }).began {
                            events += 1
                        }
                    }
                }
                imported += pending.count
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
                        pending.append((record, JSONLines.source(of: bytes) ?? options.source ?? "camera", time))
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
            var line = "plantleaf journal: \(logPath): \(imported) readings imported into \(path), \(events) events"
            if let firstProblem { line += "; \(passedOver) lines passed over, the first at \(firstProblem)" }
            Console.error(line)
        }
        return status
    }
}
