import PlantLeafCore

/// The parsed form of `--option value`, `--option=value`, `--flag` and positional arguments.
/// `--` ends the options. Unknown options are usage errors.
public struct Arguments: Sendable {
    private var values: [String: String] = [:]
    /// Every value given for each option, in order, for those that may be repeated.
    private var repeatedValues: [String: [String]] = [:]
    private var flags: Set<String> = []
    public private(set) var positionals: [String] = []
    /// Where each positional argument was in the list parsed, to find its original bytes.
    public private(set) var positionalIndices: [Int] = []

    /// Splits `arguments` into the options of `table` that take a value, its flags (each recorded
    /// under its `OptionSpec.name`, so -h is --help), and positionals. The values are read through
    /// the options' declarations (`value(_:)`), which check them.
    /// - Throws: `UsageError` for an unknown option, a valued option without its value, or a flag given a value.
    public init(_ arguments: [String], options table: [OptionSpec]) throws(UsageError) {
        var valued: Set<String> = []
        var flagNames: [String: String] = [:]
        for option in table {
            for name in option.names {
                if option.kind == .flag { flagNames[name] = option.name } else { valued.insert(name) }
            }
        }
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard !optionsEnded, argument.hasPrefix("-"), argument != "-" else {
                positionals.append(argument)
                positionalIndices.append(index - 1)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let name: String
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            } else {
                name = argument
            }
            if valued.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                values[name] = value
                repeatedValues[name, default: []].append(value)
            } else if let flag = flagNames[name], inlineValue == nil {
                flags.insert(flag)
            } else {
                throw UsageError("unknown option \(argument)")
            }
        }
    }

    /// Whether `flag` was given.
    public func has(_ flag: Flag) -> Bool { flags.contains(flag.name) }

    /// Whether `option` was given, whatever its value.
    public func gave<Value>(_ option: Option<Value>) -> Bool { values[option.name] != nil }

    /// Whether the option of `spec`, valued or flag, was given: for a group's entries (`OptionGroup.options`).
    public func gave(_ spec: OptionSpec) -> Bool { values[spec.name] != nil || flags.contains(spec.name) }

    /// The value of `option`: its text converted and checked by its declaration, or its default
    /// when it was not given.
    /// - Throws: `UsageError` when the text is not a value the option takes.
    public func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value {
        guard let text = values[option.name] else { return option.defaultValue }
        return try option.value(text)
    }

    /// Every value given for an option that may be repeated, each converted and checked by its
    /// declaration, in the order given; empty when it was not given.
    /// - Throws: `UsageError` when a text is not a value the option takes.
    public func values<Value>(_ option: Option<Value>) throws(UsageError) -> [Value] {
        var converted: [Value] = []
        for text in repeatedValues[option.name] ?? [] { converted.append(try option.value(text)) }
        return converted
    }
}
