import PlantLeafCore

/// `plantleaf teach`'s arguments: the action and its operands, and the options.
public struct TeachOptions: OptionGroup {
    public enum Action: String, Sendable, CaseIterable {
        case add, list, remove, export, `import`, check
    }

    public var help = false
    public var action: Action = .list
    public var operands: [String] = []
    /// --class NAME: add's class; remove's class to remove whole.
    @Bound(Declare.text("--class", placeholder: "NAME", help: .lines([
        "add: the class the photos show, as you want it shown, in any script (a new one,",
        "or one of the model's labels to fit it to your field); remove: every lesson of it"])))
    public var className: String?
    @Bound(LessonsOptions.lessons) public var lessonsPath: String?
    /// check --shots K: also K lessons a class taught, the rest named, over --splits random splits.
    @Bound(Declare.integer("--shots", placeholder: "K", range: 1...1000) { range in
        .lines(["check: also teach K lessons a class and name the rest, over --splits random", "splits, \(range)"])
    }) public var shots: Int?
    @Bound(Declare.integer("--splits", placeholder: "N", range: 1...1000, default: 30) { range, fallback in
        .lines(["check --shots: random splits, \(range) (default: \(fallback))"])
    }) public var splits: Int
    /// --model and --labels.
    public var files = ModelFiles()
    @Bound(SharedOptions.threads) public var threads: Int

    /// `list` with no options.
    public init() {}

    public static let optionTable: [OptionSpec] = TeachOptions.options + [SharedOptions.help.spec]

    /// - Throws: `UsageError` for an unknown action or option, or operands the action does not take.
    public static func parse(_ arguments: [String]) throws(UsageError) -> TeachOptions {
        let parsed = try Arguments(arguments, options: optionTable)
        guard !parsed.has(SharedOptions.help) else {
            var options = TeachOptions()
            options.help = true
            return options
        }
        guard let first = parsed.positionals.first else { throw UsageError("give an action: add, list, remove, export, import or check") }
        guard let action = Action(rawValue: first) else { throw OptionValue.notAChoice("the action", first, Action.allCases.map(\.rawValue)) }
        var options = try read(parsed)
        options.action = action
        options.operands = Array(parsed.positionals.dropFirst())
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
