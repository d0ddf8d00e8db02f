/// Why a benchmark could not run or a report could not be read or written. One line each: what
/// failed, where, and what to do.
public enum BenchError: Error, Equatable, CustomStringConvertible {
    case invalidSettings(String)
    case imageUnreadable(path: String, reason: String)
    case imageUndecodable(path: String, ImageError)
    case syntheticImage(reason: String)
    case setup(ClassifierSetupError)
    case runtime(RuntimeError)
    case outputUnwritable(path: String, reason: String)
    case reportUnreadable(path: String, reason: String)
    case reportInvalid(path: String, reason: String)
    case reportSchema(path: String, version: Int)

    public var description: String {
        switch self {
        case .invalidSettings(let reason):
            return "invalid benchmark settings: \(reason) (see plantleaf bench --help)"
        case .imageUnreadable(let path, let reason):
            return "cannot read benchmark image \(path): \(reason) (pass --image FILE, or --synthetic to need no file)"
        case .imageUndecodable(let path, let error):
            return "cannot decode benchmark image \(path): \(error) (pass a PNG or JPEG with --image, or --synthetic)"
        case .syntheticImage(let reason):
            return "cannot make the synthetic image: \(reason) (pass --image FILE instead)"
        case .setup(let error):
            return error.description
        case .runtime(let error):
            return "benchmark run failed: \(error)"
        case .outputUnwritable(let path, let reason):
            return "cannot write \(path): \(reason) (choose a writable path)"
        case .reportUnreadable(let path, let reason):
            return "cannot read benchmark report \(path): \(reason)"
        case .reportInvalid(let path, let reason):
            return "\(path) is not a plantleaf bench JSON report: \(reason) (write one with plantleaf bench --json FILE)"
        case .reportSchema(let path, let version):
            return "\(path) has schema_version \(version), this plantleaf reads \(BenchReport.schemaVersion) "
                + "(rerun the benchmark with this version of plantleaf)"
        }
    }
}
