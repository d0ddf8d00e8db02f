import PlantLeafCore
import PlantLeafSupport
/// Why a benchmark could not run or a report could not be read or written: what failed and where.
public enum BenchError: PlantLeafError {
    case invalidSettings(String)
    case imageUnreadable(path: String, reason: String)
    case imageUndecodable(path: String, ImageError)
    case syntheticImage(reason: String)
    case setup(ClassifierSetupError)
    case pinning(CPUSetError)
    case runtime(RuntimeError)
    case outputUnwritable(path: String, reason: String)
    case reportUnreadable(path: String, reason: String)
    case reportInvalid(path: String, reason: String)
    case reportSchema(path: String, version: Int)

    public var message: String {
        switch self {
        case .invalidSettings: return "invalid benchmark settings"
        case .imageUnreadable(let path, _): return "cannot read benchmark image \(path)"
        case .imageUndecodable(let path, _): return "cannot decode benchmark image \(path)"
        case .syntheticImage: return "cannot make the synthetic image"
        case .setup(let error): return error.message
        case .pinning(let error): return error.message
        case .runtime: return "benchmark run failed"
        case .outputUnwritable(let path, _): return "cannot write \(path)"
        case .reportUnreadable(let path, _): return "cannot read benchmark report \(path)"
        case .reportInvalid(let path, _): return "\(path) is not a plantleaf bench JSON report"
        case .reportSchema(let path, let version):
            return "\(path) has schema_version \(version), this plantleaf reads \(BenchReport.schemaVersion)"
        }
    }

    public var details: String? {
        switch self {
        case .invalidSettings(let reason), .imageUnreadable(_, let reason), .syntheticImage(let reason),
             .outputUnwritable(_, let reason), .reportUnreadable(_, let reason), .reportInvalid(_, let reason):
            return reason
        case .imageUndecodable(_, let error): return error.description
        case .setup(let error): return error.details
        case .pinning(let error): return error.details
        case .runtime(let error): return error.description
        case .reportSchema: return nil
        }
    }
}
