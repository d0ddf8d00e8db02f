import PlantLeafCore
import PlantLeafSupport

/// Why a CPU list could not be read or pinned to.
public enum CPUSetError: PlantLeafError {
    case malformed(String)
    case outOfRange(cpu: Int, limit: Int)
    case notAllowed(CPUSet, allowed: CPUSet)
    case failed(CPUSet, reason: String)

    public var message: String {
        switch self {
        case .malformed(let text):
            return "--cpus must be CPU numbers and ranges separated by commas, like 4-7 or 0,2, got '\(text)'"
        case .outOfRange(let cpu, let limit):
            return "--cpus names CPU \(cpu); CPU numbers go up to \(limit - 1)"
        case .notAllowed(let missing, let allowed):
            let named = missing.cpus.count == 1 ? "CPU \(missing), which" : "CPUs \(missing), which"
            return "--cpus names \(named) this process cannot run on (it may use \(allowed)): see lscpu"
        case .failed(let cpus, let reason):
            return "cannot pin to CPUs \(cpus): \(reason)"
        }
    }
}
