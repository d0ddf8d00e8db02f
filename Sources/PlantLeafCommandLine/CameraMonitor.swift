import Glibc
import PlantLeafCore
import PlantLeafCamera
import PlantLeafJournal
import PlantLeafLessons
import PlantLeafMQTT
import PlantLeafSupport

/// The camera monitor as `camera` runs it and `serve` runs it beside its pages: the session, its
/// journal, --log file and MQTT publisher, and the lines it writes on stderr under the command's name.
struct CameraMonitor {
    /// Where each result goes on stdout.
    enum Output {
        /// One JSON line per result, then the summary object.
        case json
        /// The status block, redrawn in place on a terminal.
        case statusBlock(StatusBlock)
        /// Nothing: the results reach the log, the broker and the pages only.
        case none
    }

    /// "plantleaf camera", "plantleaf serve": the start of every line it writes.
    let command: String
    private(set) var session: CameraSession
    private let log: AppendLog?
    private let publisher: MQTTPublisher?
    private let journal: JournalRecorder?
    /// The camera's name (--name, else `defaultName`): the readings' source in the journal, the
    /// live page's heading and the Home Assistant device's name.
    let name: String
    private var options: CameraOptions
    /// The language of the status block, the JSON lines' "display" and "advice", and MQTT's names.
    let catalogue: Catalogue
    /// The language of the lines on stderr: the reader's for camera, English in a server's log,
    /// whose other lines are English for the operators who read it.
    let lineCatalogue: Catalogue

    /// The classifier the monitor runs on, from the options' model, labels, threads and checks.
    static func classifierOptions(_ parsed: CameraCommandOptions) throws(LessonsError) -> Classifier.Options {
        try LessonsOptions.applying(parsed.model.lessonsPath,
                                    to: parsed.model.classifierOptions(crop: parsed.session.crop, verdictPolicy: parsed.verdictPolicy))
    }

    /// Loads the model (unless it reads on `shared` instances, a server's) and opens the --log
    /// file and the broker connection; nil after saying on stderr, in one line, what could not be
    /// set up. `openJournal` is called once the rest is set up (a journal that cannot be kept is
    /// no set-up failure), with the language of the lines on stderr; the journal it gives, if any, gets every reading. `linesInEnglish`: the
    /// lines on stderr stay English whatever the language (a server's log).
    init?(_ parsed: CameraCommandOptions, command: String, shared: InferenceWorkers? = nil, linesInEnglish: Bool = false,
          openJournal: (Catalogue) -> JournalRecorder?) {
        self.command = command
        options = parsed.session
        name = parsed.feed.name ?? CameraMonitor.defaultName(parsed.session)
        catalogue = OutputLanguage.catalogue(option: parsed.language)
        lineCatalogue = linesInEnglish ? .english : catalogue
        // A device that is not there or does not capture is said at once, not after the model
        // has loaded (seconds on a small board). --every waits for a missing device instead.
        if options.inputPath == nil && options.interval == nil {
            do throws(CameraError) {
                _ = try V4L2Device(path: options.devicePath)
            } catch {
                Console.error("\(command): \(Remedy.line(error, in: lineCatalogue))")
                return nil
            }
        }
        // The broker's connection is started first, to be made while the model loads.
        var publisher: MQTTPublisher?
        if let url = parsed.mqtt.url {
            do {
                let settings = try MQTTSettings(url: url, passwordFile: parsed.mqtt.passwordFile, caFile: parsed.mqtt.caFile)
                publisher = try MQTTPublisher(settings: settings, softwareVersion: ProjectPaths.version, cameraName: name, catalogue: catalogue,
                                              connectTimeout: 0)
                // Home Assistant's image entity shows the frame the reading was made from.
                options.keepModelInput = true
            } catch {
                Console.error("\(command): --mqtt: \(Remedy.line(error, in: lineCatalogue))")
                return nil
            }
        }
        let workers: InferenceWorkers
        if let shared {
            workers = shared
        } else {
            let classifier: Classifier
            do {
                classifier = try Classifier(options: CameraMonitor.classifierOptions(parsed))
            } catch {
                Console.error("\(command): \(Remedy.line(error, in: lineCatalogue))")
                return nil
            }
            if let problem = classifier.secondOpinionProblem { Console.error("\(command): \(Remedy.skippedCheckLine(problem, in: lineCatalogue))") }
            do {
                workers = try InferenceWorkers([classifier])
            } catch {
                Console.error("\(command): \(Remedy.line(error, in: lineCatalogue))")
                return nil
            }
        }
        var log: AppendLog?
        if let path = parsed.feed.logPath {
            do {
                log = try AppendLog(path: path)
            } catch {
                Console.error("\(command): --log \(path): \(error)")
                return nil
            }
        }
        if let publisher {
            // Connecting went on while the model loaded: a broker that refuses has said so by
            // now, and one that took the connection without answering holds up nothing.
            do {
                try publisher.awaitAnswer()
            } catch {
                Console.error("\(command): --mqtt: \(Remedy.line(error, in: lineCatalogue))")
                return nil
            }
        }
        self.log = log
        self.publisher = publisher
        journal = openJournal(lineCatalogue)
        // An event keeps the frame that started it.
        if journal != nil { options.keepModelInput = true }
        session = CameraSession(workers: workers, verdictPolicy: parsed.verdictPolicy, options: options)
    }

    /// A camera's name when --name gives none: a device's own (its V4L2 card name, "UVC Camera
    /// (046d:0825)"), else its path when it cannot be asked now; a stream's file name, or
    /// "Camera" for standard input. Never a word only a programmer reads, such as "stdin".
    static func defaultName(_ session: CameraOptions) -> String {
        if let input = session.inputPath {
            guard input != FileReader.standardInput, let file = input.split(separator: "/").last else { return "Camera" }
            return String(file)
        }
        let card = (try? V4L2Device(path: session.devicePath))?.card.trimmingWhitespace() ?? ""
        return card.isEmpty ? session.devicePath : card
    }

    /// Keeps each result's model input (for a preview, or a page that shows the frame).
    mutating func keepModelInput() {
        guard !options.keepModelInput else { return }
        options.keepModelInput = true
        session = CameraSession(workers: session.workers, verdictPolicy: session.verdictPolicy, options: options)
    }

    /// Runs the session to its end; `alsoDeliver` gets each result's record and its model input
    /// as JPEG (when kept). Returns the exit status `camera` gives.
    func run(output: Output, alsoDeliver: ((ReadingRecord, [UInt8]?) -> Void)? = nil) -> Int32 {
        /// Connection changes, said as they are noticed (after each result and each notice).
        func reportConnection() {
            for event in publisher?.takeEvents() ?? [] { Console.error("\(command): mqtt: \(EventText.line(event, in: lineCatalogue))") }
        }
        defer { publisher?.close() }
        var output = output
        var logFailure: FileWriteError?
        let summary: CameraSummary
        do {
            summary = try session.run(onSetup: { setup in
                let line = CameraOutput.setupLine(setup, crop: options.crop, in: lineCatalogue)
                Console.error("\(command): \(line)")
                if case .statusBlock(var status) = output {
                    status.header = line
                    output = .statusBlock(status)
                }
            }, onResult: { result in
                let record = result.record
                let line = record.json(in: catalogue)
                switch output {
                case .json: Console.out(line)
                case .statusBlock(var status):
                    status.draw(result, catalogue: catalogue)
                    output = .statusBlock(status)
                case .none: break
                }
                // Encoded once for the broker and the pages alike; the journal asks for its picture
                // only when a reading may start an event or is its hour's first, and takes this one if it fits.
                let frame = publisher == nil && alsoDeliver == nil ? nil
                    : result.modelInput.flatMap { try? JPEGEncoder.encode($0, quality: CameraOutput.frameJPEGQuality) }
                let established = journal?.record(record, source: name, time: JournalTime(iso8601: result.time) ?? .now(), makesEvents: true) {
                    frame.flatMap { $0.count <= EventPicture.maximumBytes ? $0 : nil } ?? result.modelInput.flatMap(EventPicture.encode)
                }
                var reading = MQTTReading(record: record, frameJPEG: frame)
                // The problem sensor follows the events: on once a problem has held, as the page shows
                // it, and on while the view of it is blocked.
                if journal != nil {
                    reading.establishedProblem = established?.established?.isProblem ?? false
                    reading.viewBlocked = established?.viewBlocked ?? false
                }
                publisher?.publish(reading)
                alsoDeliver?(record, frame)
                reportConnection()
                if let log {
                    do throws(FileWriteError) {
                        try log.append(line)
                    } catch {
                        logFailure = error
                        return false
                    }
                }
                // A reader that has gone (`| head -1`) ends the run as classify's does, rather
                // than a camera classifying for no one; this reading still went to the log and broker.
                return !Console.stdoutFailed
            }, onNotice: { notice in
                Console.error("\(command): \(EventText.line(notice, in: lineCatalogue))")
                reportConnection()
            })
        } catch {
            Console.error("\(command): \(Remedy.line(error, in: lineCatalogue))")
            return ExitCode.setupFailure
        }
        reportConnection()
        let fromStream = options.inputPath != nil
        let retriesDevice = options.interval != nil && !fromStream
        Console.error("\(command): " + CameraOutput.summaryLine(summary, fromStream: fromStream, retriesDevice: retriesDevice, in: lineCatalogue))
        if case .json = output {
            Console.out(CameraOutput.summaryRecord(summary, fromStream: fromStream, retriesDevice: retriesDevice, time: WallClock.localISO8601()))
        }
        if let logFailure, let log {
            Console.error("\(command): " + lineCatalogue.text("camera.log-unwritable", ["path": log.path, "reason": logFailure.reason]))
            return ExitCode.setupFailure
        }
        if let failure = summary.failure {
            Console.error("\(command): \(Remedy.line(failure, in: lineCatalogue))")
            return ExitCode.partialFailure
        }
        return ExitCode.success
    }
}
