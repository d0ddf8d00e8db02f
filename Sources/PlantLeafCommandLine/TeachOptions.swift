import PlantLeafCore

/// `plantleaf teach`'s arguments: the action and its operands, and the options.
public struct TeachOptions: Sendable {
    public enum Action: String, Sendable, CaseIterable {
        case add, list, remove, export, `import`, check
    }

    public var help = false
    public var action: Action = .list
    public var operands: [String] = []
    /// --class NAME: add's class; remove's class to remove whole.
    public var className: String?
    public var lessonsPath: String?
    /// --model and --labels.
    public var files = ModelFiles()
    public var threads = SharedOptions.threads.defaultValue
    /// check --shots K: also K lessons a class taught, the rest named, over --splits random splits.
    public var shots: Int?
    public var splits = TeachOptions.Declared.splits.defaultValue

    enum Declared {
        static let className = Declare.text("--class", placeholder: "NAME", help: .lines([
            "add: the class the photos show, as you want it shown, in any script (a new one,",
            "or one of the model's labels to fit it to your field); remove: every lesson of it"]))
        static let shots = Declare.integer("--shots", placeholder: "K", range: 1...1000) { range in
            .lines(["check: also teach K lessons a class and name the rest, over --splits random", "splits, \(range)"])
        }
        static let splits = Declare.integer("--splits", placeholder: "N", range: 1...1000, default: 30) { range, fallback in
            .lines(["check --shots: random splits, \(range) (default: \(fallback))"])
        }
    }

    public static let optionTable: [OptionSpec] = [Declared.className.spec, LessonsOptions.lessons.spec, Declared.shots.spec, Declared.splits.spec]
        + ModelFiles.options + [SharedOptions.threads.spec, SharedOptions.help.spec]

    /// - Throws: `UsageError` for an unknown action or option, or operands the action does not take.
    public static func parse(_ arguments: [String]) throws(UsageError) -> TeachOptions {
        let parsed = try Arguments(arguments, options: optionTable)
        var options = TeachOptions()
        if parsed.has(SharedOptions.help) {
            options.help = true
            return options
        }
        guard let first = parsed.positionals.first else { throw UsageError("give an action: add, list, remove, export, import or check") }
        guard let action = Action(rawValue: first) else { throw OptionValue.notAChoice("the action", first, Action.allCases.map(\.rawValue)) }
        options.action = action
        options.operands = Array(parsed.positionals.dropFirst())
        options.className = try parsed.value(Declared.className)
        options.lessonsPath = try parsed.value(LessonsOptions.lessons)
        options.files = try ModelFiles.read(parsed)
        options.threads = try parsed.value(SharedOptions.threads)
        options.shots = try parsed.value(Declared.shots)
        options.splits = try parsed.value(Declared.splits)
        switch action {
        case .add:
            guard options.className != nil else { throw UsageError("add needs --class NAME: the class the photos show") }
            guard !options.operands.isEmpty else { throw UsageError("add takes the photos or folders to learn from") }
        case .list, .check:
            if let extra = options.operands.first { throw UsageError("unexpected argument '\(extra)'") }
        case .remove:
            guard !options.operands.isEmpty || options.className != nil else {
                throw UsageError("remove takes lesson numbers (plantleaf teach list shows them) or --class NAME")
            }
            for operand in options.operands where Int64(operand) == nil { throw UsageError("remove: '\(operand)' is not a lesson number") }
        case .export, .import:
            guard options.operands.count == 1 else { throw UsageError("\(action.rawValue) takes one lessons file") }
        }
        return options
    }
}
