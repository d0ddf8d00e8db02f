import PlantLeafCore
import PlantLeafSupport

/// Why a report's field cannot be read: one line naming the field by its path in the file
/// (`results[0].stages.invoke.median_ms`).
struct ReportFieldError: Error {
    var reason: String
}

/// One JSON object of a bench report and where it sits in the file, with the readers of its
/// members: each names the member's path when it is missing or of the wrong kind.
struct ReportObject {
    /// Reads a member's value found at a path: the value and the path, for its errors.
    typealias Reader<T> = (JSONValue, String) throws(ReportFieldError) -> T

    private let members: [String: JSONValue]
    private let location: String

    init(_ value: JSONValue, location: String) throws(ReportFieldError) {
        guard case .object(let members) = value else { throw Self.wrongKind(at: location) }
        self.members = members
        self.location = location
    }

    /// The member `key`, which must be there and not null.
    func required<T>(_ key: String, _ read: Reader<T>) throws(ReportFieldError) -> T {
        guard let value = members[key] else { throw ReportFieldError(reason: "missing field \(path(key))") }
        return try read(value, path(key))
    }

    /// The member `key`, nil when it is absent or null.
    func optional<T>(_ key: String, _ read: Reader<T>) throws(ReportFieldError) -> T? {
        guard let value = members[key], value != .null else { return nil }
        return try read(value, path(key))
    }

    private func path(_ key: String) -> String { location.isEmpty ? key : location + "." + key }

    private static func wrongKind(at path: String) -> ReportFieldError {
        ReportFieldError(reason: path.isEmpty ? "the report is not a JSON object" : "field \(path) has the wrong type")
    }

    static func string(_ value: JSONValue, _ path: String) throws(ReportFieldError) -> String {
        guard case .string(let text) = value else { throw wrongKind(at: path) }
        return text
    }

    static func bool(_ value: JSONValue, _ path: String) throws(ReportFieldError) -> Bool {
        guard case .bool(let flag) = value else { throw wrongKind(at: path) }
        return flag
    }

    static func number(_ value: JSONValue, _ path: String) throws(ReportFieldError) -> Double {
        guard case .number(let number) = value else { throw wrongKind(at: path) }
        return number
    }

    /// A whole number that fits an Int: 1.5 or 1e300 where a count belongs is refused.
    static func int(_ value: JSONValue, _ path: String) throws(ReportFieldError) -> Int {
        let number = try self.number(value, path)
        guard let whole = Int(exactly: number) else {
            throw ReportFieldError(reason: "field \(path) is \(number), not a whole number")
        }
        return whole
    }

    /// Reads an object's value as a `ReportObject` handed to `make` (a type's initialiser).
    static func object<T>(_ make: @escaping (ReportObject) throws(ReportFieldError) -> T) -> Reader<T> {
        { (value, path) throws(ReportFieldError) in try make(ReportObject(value, location: path)) }
    }

    static func array<T>(_ element: @escaping Reader<T>) -> Reader<[T]> {
        { (value, path) throws(ReportFieldError) in
            guard case .array(let elements) = value else { throw wrongKind(at: path) }
            var read: [T] = []
            read.reserveCapacity(elements.count)
            for (index, item) in elements.enumerated() { read.append(try element(item, "\(path)[\(index)]")) }
            return read
        }
    }

    /// An object read as a dictionary: every member, whatever its name, by `element`.
    static func members<T>(_ element: @escaping Reader<T>) -> Reader<[String: T]> {
        { (value, path) throws(ReportFieldError) in
            guard case .object(let members) = value else { throw wrongKind(at: path) }
            var read: [String: T] = [:]
            for (key, item) in members { read[key] = try element(item, path + "." + key) }
            return read
        }
    }

    /// A value that may be null (nil) and is otherwise read by `read`.
    static func nullable<T>(_ read: @escaping Reader<T>) -> Reader<T?> {
        { (value, path) throws(ReportFieldError) in value == .null ? nil : try read(value, path) }
    }
}
