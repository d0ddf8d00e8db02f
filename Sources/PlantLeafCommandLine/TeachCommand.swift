import PlantLeafCore
import PlantLeafJournal
import PlantLeafLessons
import PlantLeafSupport

/// `plantleaf teach`: a grower's own classes (a crop the model does not know, or one of its 38
/// fitted to their field and camera), learned from a few photos each and kept in the lessons
/// file classify, camera and serve consult (docs/teach.md).
enum TeachCommand: Subcommand {
    static let configuration = CommandConfiguration(
        name: "teach", abstract: "teach it your crop from a few photos a class: add, list, remove, export, import, check",
        options: TeachOptions.optionTable, helpLabelWidth: 19)

    static let helpIntroduction = """
        USAGE: plantleaf teach add --class NAME PHOTO|DIR...
               plantleaf teach list | check
               plantleaf teach remove NUMBER... | remove --class NAME
               plantleaf teach export FILE | import FILE

        Teaches PlantLeaf your crop from a few photos a class (10 or more is best): add learns
        from each photo's features in the leaf model (its pooled vector, read from the same run
        that scores it) and keeps them, with the 224 x 224 picture the model saw, in the lessons
        file. From then on classify, camera and serve name a photo close to your lessons by them.
        list shows the classes and lessons, remove forgets some, export writes them to a file to
        share and import adds a file's lessons; check says how well it has learned: each class's
        accuracy with each lesson left out, which classes it confuses, and whether more photos
        would help. A photo that is not a leaf, or a bad name, is refused and nothing changes.

        OPTIONS:
        """

    static let helpConclusion = """
        EXIT CODES: 0 done, 2 usage, photos that cannot be taught, the model, or a lessons file
        that cannot be read or written (left as it was).
        """

    /// What teach says when it stops: one line, nothing changed.
    struct Refusal: Error {
        var line: String
    }

    static func run(_ arguments: [String], bytes _: [[UInt8]]) -> Int32 {
        let options: TeachOptions
        do {
            options = try TeachOptions.parse(arguments)
        } catch {
            Console.error("plantleaf teach: \(error) (see plantleaf teach --help)")
            return ExitCode.setupFailure
        }
        if options.help {
            Console.out(help)
            return ExitCode.success
        }
        guard let path = LessonsOptions.path(options.lessonsPath) else {
            Console.error("plantleaf teach: neither XDG_STATE_HOME nor HOME is set: give --lessons FILE")
            return ExitCode.setupFailure
        }
        do {
            switch options.action {
            case .add: try add(options, path: path)
            case .list: try list(path: path)
            case .remove:
                let removed = try LessonsFile(path: path).remove(ids: options.operands.compactMap { Int64($0) }, className: options.className)
                Console.error("plantleaf teach: \(removed) lessons removed from \(path)")
            case .export:
                try LessonsFile(path: path, readOnly: true).export(to: options.operands[0])
                Console.error("plantleaf teach: the lessons of \(path) written to \(options.operands[0])")
            case .import:
                let added = try LessonsFile(path: path).importLessons(from: options.operands[0])
                Console.error("plantleaf teach: \(added) lessons of \(options.operands[0]) added to \(path)")
            case .check: try check(path: path, shots: options.shots, splits: options.splits)
            }
        } catch let refusal as Refusal {
            Console.error("plantleaf teach: \(refusal.line)")
            return ExitCode.setupFailure
        } catch {
            Console.error("plantleaf teach: \(error)")
            return ExitCode.setupFailure
        }
        return ExitCode.success
    }

    // MARK: - add

    private static func add(_ options: TeachOptions, path: String) throws {
        let className = options.className ?? ""
        if let problem = LessonsFile.nameProblem(className) { throw LessonsError.badName(problem) }
        let lessons = try LessonsFile(path: path)
        let classifier = try featureClassifier(options)
        let entries = ImageFiles.expand(options.operands.map { PathName($0) })
        guard entries.contains(where: { if case .file = $0 { return true } else { return false } }) else {
            throw Refusal(line: "no photos in \(options.operands.joined(separator: ", ")) (.jpg, .jpeg or .png): nothing taught")
        }
        var taught: [LessonsFile.NewLesson] = []
        var problems: [String] = []
        for entry in entries {
            switch entry {
            case .problem(let photo, let reason):
                problems.append("\(photo.escaped): \(reason.message(in: .english))")
            case .file(let photo):
                switch Result(catching: { () throws(Refusal) in try lesson(of: photo, className: className, classifier: classifier) }) {
                case .success(let lesson): taught.append(lesson)
                case .failure(let refusal): problems.append(refusal.line)
                }
            }
        }
        for problem in problems { Console.error("plantleaf teach: \(problem)") }
        guard problems.isEmpty else { throw Refusal(line: "\(problems.count) of \(entries.count) photos cannot be taught: take them out and run it again (nothing taught)") }
        let reference = try lessons.reference() ?? sampleReference(classifier)
        if let taughtWith = reference.model, taughtWith != classifier.featureSignature {
            throw Refusal(line: "\(path) was taught with another model (\(taughtWith)): teach with that model, or give another --lessons FILE")
        }
        try lessons.add(taught, reference: reference, time: JournalTime.now().iso8601)
        let all = try lessons.lessons()
        let classes = Set(all.map(\.className)).count
        Console.error("plantleaf teach: \(taught.count) photos of \(TerminalText.neutralised(className)) taught; \(path) holds \(all.count) lessons of \(classes) classes")
    }

    /// A classifier that reads the model's pooled features; refused for a model without them.
    private static func featureClassifier(_ options: TeachOptions) throws -> Classifier {
        var classifierOptions = ProjectPaths.classifierOptions(modelPath: options.files.modelPath, labelsPath: options.files.labelsPath, threads: options.threads)
        classifierOptions.readsFeatures = true
        let classifier: Classifier
        do {
            classifier = try Classifier(options: classifierOptions)
        } catch {
            throw Refusal(line: Remedy.line(error))
        }
        guard classifier.featureCount != nil else {
            throw Refusal(line: "\(classifierOptions.modelPath) has no pooled feature vector (a global average pool before its classifier): teaching needs one")
        }
        return classifier
    }

    /// One photo as a lesson: its features and its mirror image's, its picture as a JPEG.
    private static func lesson(of photo: PathName, className: String, classifier: Classifier) throws(Refusal) -> LessonsFile.NewLesson {
        let name = photo.string ?? photo.escaped
        let result: Classification
        do {
            result = try classifier.classify(path: name)
        } catch {
            throw Refusal(line: "\(photo.escaped): \(error.reason)")
        }
        do {
            return try LessonMaking.lesson(className: className, source: photo.escaped, result: result, classifier: classifier)
        } catch {
            throw Refusal(line: "\(error)")
        }
    }

    /// The sample leaves' reference for a new lessons file.
    private static func sampleReference(_ classifier: Classifier) throws -> LessonsFile.Reference {
        guard let folder = ProjectPaths.defaultSampleFolder() else {
            throw Refusal(line: "teaching needs the sample leaves (\(ProjectPaths.sampleFolder)) to measure the first lesson against: run make setup")
        }
        return try LessonMaking.sampleReference(folder: folder, classifier: classifier)
    }

    // MARK: - list and check

    private static func list(path: String) throws {
        let file = try LessonsFile(path: path, readOnly: true)
        let lessons = try file.lessons()
        let taught = try file.taughtClasses()
        Console.out("\(path): \(lessons.count) lessons of \(taught?.classes.count ?? 0) classes")
        for taughtClass in taught?.classes ?? [] {
            Console.out("\(TerminalText.neutralised(taughtClass.name))  (\(taughtClass.lessons) lessons, threshold \(DecimalText.fixed(taughtClass.threshold, decimals: 2)))")
            for lesson in lessons where lesson.className == taughtClass.name {
                Console.out("  \(lesson.id)  \(lesson.added)  \(TerminalText.neutralised(lesson.source))")
            }
        }
    }

    private static func check(path: String, shots: Int?, splits: Int) throws {
        let file = try LessonsFile(path: path, readOnly: true)
        let lessons = try file.lessons()
        guard let reference = try file.reference(), !lessons.isEmpty else { throw LessonsError.notFound(path: path) }
        let examples = lessons.map(\.example)
        let outcomes = TaughtClasses.leaveOneOut(examples: examples, centre: reference.centre, modelClassMeans: reference.modelClassMeans)
        // The same with half of each class's lessons: a rising curve says more photos would help.
        var half: [TaughtClasses.Example] = []
        var seen: [String: Int] = [:]
        let counts = Dictionary(grouping: examples, by: \.className).mapValues(\.count)
        for example in examples where seen[example.className, default: 0] < max(1, counts[example.className]! / 2) {
            seen[example.className, default: 0] += 1
            half.append(example)
        }
        let halfOutcomes = TaughtClasses.leaveOneOut(examples: half, centre: reference.centre, modelClassMeans: reference.modelClassMeans)
        func accuracy(_ outcomes: [(taught: String, named: String?)], of name: String) -> Double {
            let mine = outcomes.filter { $0.taught == name }
            return mine.isEmpty ? 0 : Double(mine.count { $0.named == name }) / Double(mine.count)
        }
        var names: [String] = []
        for example in examples where !names.contains(example.className) { names.append(example.className) }
        let overall = Double(outcomes.count { $0.named == $0.taught }) / Double(outcomes.count)
        Console.out("\(path): \(lessons.count) lessons, each left out in turn: \(DecimalText.fixed(overall * 100, decimals: 0))% named right")
        for name in names {
            let all = accuracy(outcomes, of: name), fewer = accuracy(halfOutcomes, of: name)
            var line = "\(TerminalText.neutralised(name)): \(counts[name]!) lessons, \(DecimalText.fixed(all * 100, decimals: 0))% right"
            var confusions: [String: Int] = [:]
            for outcome in outcomes where outcome.taught == name && outcome.named != name { confusions[outcome.named ?? "(none: the model's own)", default: 0] += 1 }
            if !confusions.isEmpty {
                line += "; taken for " + confusions.sorted { $0.value > $1.value }.map { "\(TerminalText.neutralised($0.key)) \($0.value)" }.joined(separator: ", ")
            }
            if counts[name]! < 2 {
                line += "; teach more photos: one cannot be checked"
            } else if all < 0.95 && (counts[name]! < 10 || all - fewer > 0.05) {
                line += "; more photos would help (\(DecimalText.fixed(fewer * 100, decimals: 0))% with half of them)"
            } else {
                line += "; more photos would change little (\(DecimalText.fixed(fewer * 100, decimals: 0))% with half of them)"
            }
            Console.out(line)
        }
        if let shots { splitCheck(examples, reference: reference, shots: shots, splits: splits) }
    }

    /// Taught `shots` lessons a class chosen at random, how many of the other lessons the rule
    /// names right (a taught class wins and is theirs), over `splits` splits from a fixed seed,
    /// so two runs on the same file print the same numbers.
    private static func splitCheck(_ examples: [TaughtClasses.Example], reference: LessonsFile.Reference, shots: Int, splits: Int) {
        var generator = SplitMix64(seed: 38)
        let byClass = Dictionary(grouping: examples.indices, by: { examples[$0].className })
        guard byClass.values.allSatisfy({ $0.count > shots }) else {
            Console.out("--shots \(shots): every class needs more than \(shots) lessons to leave some to name")
            return
        }
        var accuracies: [Double] = []
        for _ in 0..<splits {
            var taught: [TaughtClasses.Example] = [], rest: [TaughtClasses.Example] = []
            for name in byClass.keys.sorted() {
                let chosen = Set(byClass[name]!.shuffled(using: &generator).prefix(shots))
                for index in byClass[name]! { (chosen.contains(index) ? { taught.append(examples[index]) } : { rest.append(examples[index]) })() }
            }
            let rule = TaughtClasses(examples: taught, centre: reference.centre, modelClassMeans: reference.modelClassMeans)
            let right = rest.count { example in rule.match(example.features).map { $0.wins && $0.className == example.className } ?? false }
            accuracies.append(Double(right) / Double(rest.count))
        }
        let mean = accuracies.reduce(0, +) / Double(accuracies.count)
        Console.out("\(shots) lessons a class taught, the rest named, \(splits) random splits: \(DecimalText.fixed(mean, decimals: 3)) right on average, "
                    + "\(DecimalText.fixed(accuracies.min() ?? 0, decimals: 3)) in the worst split")
    }
}
