import PlantLeafBench
import PlantLeafCore

/// What to type about a benchmark that cannot run or a report that cannot be read; in English,
/// as bench's lines are.
extension BenchError: HasRemedy {
    func remedy(in catalogue: Catalogue) -> String? {
        switch self {
        case .invalidSettings: return " (see plantleaf bench --help)"
        case .imageUnreadable: return " (pass --image FILE, or --synthetic to need no file)"
        case .imageUndecodable: return " (pass a PNG or JPEG with --image, or --synthetic)"
        case .syntheticImage: return " (pass --image FILE instead)"
        case .setup(let error): return error.remedy(in: .english)
        // It names the CPUs the process may use.
        case .pinning: return nil
        case .runtime(let error): return error.remedy(in: .english)
        case .outputUnwritable: return " (choose a writable path)"
        case .reportUnreadable: return nil
        case .reportInvalid: return " (write one with plantleaf bench --json FILE)"
        case .reportSchema: return " (rerun the benchmark with this version of plantleaf)"
        }
    }
}
