import PlantLeafCore

/// One option that takes a value, declared once: its help entry, what it stands for when not
/// given, and how its text becomes a checked value. Parsing, range checks and the help text all
/// come from this declaration; a subcommand's table is the specs of the options it declares.
public struct Option<Value: Sendable>: Sendable {
    public let spec: OptionSpec
    /// The value when the option is not given.
    public let defaultValue: Value
    private let convert: @Sendable (_ text: String) throws(UsageError) -> Value

    /// An option named `name` whose value is written `placeholder` in the help; `convert` turns
    /// its text into the value or says what is wrong with it.
    init(_ name: String, placeholder: String, default defaultValue: Value, help: OptionHelp,
         convert: @escaping @Sendable (_ text: String) throws(UsageError) -> Value) {
        spec = OptionSpec(name, .valued(placeholder: placeholder), help)
        self.defaultValue = defaultValue
        self.convert = convert
    }

    private init(spec: OptionSpec, defaultValue: Value, convert: @escaping @Sendable (_ text: String) throws(UsageError) -> Value) {
        self.spec = spec
        self.defaultValue = defaultValue
        self.convert = convert
    }

    public var name: String { spec.name }

    /// The value `text` stands for.
    /// - Throws: `UsageError` naming the option when the text is not a value it takes.
    public func value(_ text: String) throws(UsageError) -> Value { try convert(text) }

    /// The same option, described by `help` in another subcommand's help text: the words differ
    /// where the subcommands do, the name, parsing and range stay this declaration's.
    func described(_ help: OptionHelp) -> Option {
        Option(spec: OptionSpec(names: spec.names, kind: spec.kind, help: help), defaultValue: defaultValue, convert: convert)
    }

    /// The same option with `defaultValue` when not given, for a subcommand whose default differs
    /// (the checks camera runs without --checks).
    func defaulting(to defaultValue: Value, help: OptionHelp) -> Option {
        Option(spec: OptionSpec(names: spec.names, kind: spec.kind, help: help), defaultValue: defaultValue, convert: convert)
    }
}

/// One option that stands alone, declared once: given or not.
public struct Flag: Sendable {
    public let spec: OptionSpec

    init(names: [String], help: OptionHelp) { spec = OptionSpec(names: names, kind: .flag, help: help) }
    init(_ name: String, help: OptionHelp) { self.init(names: [name], help: help) }

    public var name: String { spec.name }

    /// The same flag, described by `help` in another subcommand's help text.
    func described(_ help: OptionHelp) -> Flag { Flag(names: spec.names, help: help) }
}

/// The kinds of option value, each with the checks its text goes through: what the subcommands'
/// declarations are made with.
enum Declare {
    /// An option whose value is `text` itself (paths, URLs); nil when not given.
    static func text(_ name: String, placeholder: String, help: OptionHelp) -> Option<String?> {
        Option<String?>(name, placeholder: placeholder, default: nil, help: help) { text throws(UsageError) in text }
    }

    /// A whole number in `range`; `defaultValue` when not given. `help` gets the range and the
    /// default as the help texts write them.
    static func integer(_ name: String, placeholder: String = "N", range: ClosedRange<Int>, default defaultValue: Int,
                        help: (_ range: String, _ fallback: String) -> OptionHelp) -> Option<Int> {
        Option<Int>(name, placeholder: placeholder, default: defaultValue, help: help(OptionRange.phrase(range), String(defaultValue))) {
            text throws(UsageError) in try OptionValue.integer(name, text, range: range)
        }
    }

    /// A whole number in `range`; nil when not given (the command decides what that means).
    static func integer(_ name: String, placeholder: String = "N", range: ClosedRange<Int>,
                        help: (_ range: String) -> OptionHelp) -> Option<Int?> {
        Option<Int?>(name, placeholder: placeholder, default: nil, help: help(OptionRange.phrase(range))) {
            text throws(UsageError) in try OptionValue.integer(name, text, range: range)
        }
    }

    /// A number in `range` (above its lower bound when `aboveLowerBound`); nil when not given.
    static func number(_ name: String, placeholder: String, range: ClosedRange<Double>, aboveLowerBound: Bool = false,
                       help: (_ range: String) -> OptionHelp) -> Option<Double?> {
        let phrase = aboveLowerBound ? OptionRange.phraseAboveLowerBound(range) : OptionRange.phrase(range)
        return Option<Double?>(name, placeholder: placeholder, default: nil, help: help(phrase)) { text throws(UsageError) in
            try OptionValue.number(name, text, range: range, aboveLowerBound: aboveLowerBound)
        }
    }

    /// A number in `range`; `defaultValue` when not given.
    static func number(_ name: String, placeholder: String, range: ClosedRange<Double>, default defaultValue: Double,
                       help: (_ range: String, _ fallback: String) -> OptionHelp) -> Option<Double> {
        Option<Double>(name, placeholder: placeholder, default: defaultValue,
                       help: help(OptionRange.phrase(range), OptionRange.number(defaultValue))) { text throws(UsageError) in
            try OptionValue.number(name, text, range: range, aboveLowerBound: false)
        }
    }

    /// A duration (500ms, 30s, 5m, 1h) in seconds, in `range`; nil when not given.
    static func duration(_ name: String, placeholder: String, range: ClosedRange<Double>, help: OptionHelp) -> Option<Double?> {
        Option<Double?>(name, placeholder: placeholder, default: nil, help: help) { text throws(UsageError) in
            try OptionValue.duration(name, text, range: range)
        }
    }

    /// One of `Choice`'s cases by its raw value; `defaultValue` when not given.
    static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, placeholder: String, default defaultValue: Choice, help: OptionHelp
    ) -> Option<Choice> where Choice.RawValue == String {
        Option<Choice>(name, placeholder: placeholder, default: defaultValue, help: help) { text throws(UsageError) in
            guard let choice = Choice(rawValue: text) else { throw OptionValue.notAChoice(name, text, Choice.allCases.map(\.rawValue)) }
            return choice
        }
    }
}
