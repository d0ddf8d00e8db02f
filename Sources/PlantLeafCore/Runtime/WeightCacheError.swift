/// Why the weight cache could not be used.
struct WeightCacheError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
