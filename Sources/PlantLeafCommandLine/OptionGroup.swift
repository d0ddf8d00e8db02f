/// Options that go together (the model's, the journal's), each bound once to the field it sets:
/// `@Bound(declaration) var field: Value`. The declaration (`Option` or `Flag`) gives the name, the
/// help entry and the checks; the wrapper is where its value goes. A subcommand's table lists a
/// group's entries with `options`, in the order its fields are declared, and `read(_:)` fills
/// every field from the arguments, so adding an option to a group is one line.
///
/// The shape is swift-argument-parser's (a property wrapper per option, the group found by
/// reflection), without its dependency: the values still go through `Arguments` and the
/// declarations, with their ranges and their words in the usage errors.
public protocol OptionGroup: Sendable {
    /// Every field at its declaration's default, as a subcommand runs without these options.
    init()

    /// Checks what the fields' own declarations cannot: options that do not go together.
    /// - Throws: `UsageError` saying which.
    func validate() throws(UsageError)
}

extension OptionGroup {
    public func validate() throws(UsageError) {}

    /// The help entries and parser table of the group, in the order its fields are declared;
    /// a nested group's entries where it is declared.
    public static var options: [OptionSpec] {
        Mirror(reflecting: Self()).children.flatMap { child -> [OptionSpec] in
            if let bound = child.value as? any BoundOption { return [bound.spec] }
            if let group = child.value as? any OptionGroup { return type(of: group).options }
            return []
        }
    }

    /// The group with each field read from `parsed` by its declaration; the fields whose option
    /// was not given keep their default.
    /// - Throws: `UsageError` of the first field, in declaration order, whose text is not a value
    ///   it takes, or of the first group, nested ones first, whose `validate()` refuses it.
    static func read(_ parsed: Arguments) throws(UsageError) -> Self {
        let group = OptionReading.$arguments.withValue(parsed) { Self() }
        try group.check()
        return group
    }

    /// Throws the usage error of the first field whose value could not be read or of a nested
    /// group's `validate()`, in declaration order, then this group's own `validate()`'s.
    fileprivate func check() throws(UsageError) {
        for child in Mirror(reflecting: self).children {
            if let bound = child.value as? any BoundOption, let problem = bound.problem { throw problem }
            if let group = child.value as? any OptionGroup { try group.check() }
        }
        try validate()
    }
}

/// The arguments a group is being read from while `OptionGroup.read(_:)` makes it: each `Bound`
/// field takes its value from them as it is initialised. Outside a read there are none, and each
/// field is its default.
private enum OptionReading {
    @TaskLocal static var arguments: Arguments?
}

/// What an `OptionGroup`'s reflection needs of a field, whatever its value's type.
private protocol BoundOption {
    var spec: OptionSpec { get }
    var problem: UsageError? { get }
}

/// A field of an `OptionGroup` bound to the option that sets it.
@propertyWrapper
public struct Bound<Value: Sendable>: Sendable, BoundOption {
    public var wrappedValue: Value
    let spec: OptionSpec
    /// Why the given text is not a value of the option; `OptionGroup.read(_:)` throws it.
    let problem: UsageError?
    /// Whether the option was given, for a check that cares even when its value is the default
    /// (--input refuses `--size 640x480` too): `$field.given`.
    public let given: Bool

    /// The binding itself, `$field`, for `given`.
    public var projectedValue: Bound { self }

    /// A field set by `option`: its value in the arguments being read, else its default.
    init(_ option: Option<Value>) {
        spec = option.spec
        given = OptionReading.arguments?.gave(option) ?? false
        do throws(UsageError) {
            if let parsed = OptionReading.arguments { wrappedValue = try parsed.value(option) } else { wrappedValue = option.defaultValue }
            problem = nil
        } catch {
            wrappedValue = option.defaultValue
            problem = error
        }
    }
}

extension Bound {
    /// A field set by every value given for `option`, which may be repeated, in the order given.
    init<Element>(repeating option: Option<Element>) where Value == [Element] {
        spec = option.spec
        given = OptionReading.arguments?.gave(option) ?? false
        do throws(UsageError) {
            wrappedValue = try OptionReading.arguments?.values(option) ?? []
            problem = nil
        } catch {
            wrappedValue = []
            problem = error
        }
    }
}

extension Bound where Value == Bool {
    /// A field set by `flag`: whether it was given.
    init(_ flag: Flag) {
        spec = flag.spec
        wrappedValue = OptionReading.arguments?.has(flag) ?? false
        given = wrappedValue
        problem = nil
    }
}

/// Two groups are equal when their values are: the declarations are the same by construction.
extension Bound: Equatable where Value: Equatable {
    public static func == (left: Bound, right: Bound) -> Bool { left.wrappedValue == right.wrappedValue }
}

/// The value alone, so a group prints as its values.
extension Bound: CustomStringConvertible {
    public var description: String { String(describing: wrappedValue) }
}
