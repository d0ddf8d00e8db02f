import PlantLeafCore
import PlantLeafSupport

/// The `key : value` lines of /proc/cpuinfo.
struct CPUInfo {
    private var entries: [(key: String, value: String)] = []

    init(text: String) {
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            entries.append((String(line[..<colon]).trimmingWhitespace(), String(line[line.index(after: colon)...]).trimmingWhitespace()))
        }
    }

    func first(_ key: String) -> String? {
        entries.first { $0.key == key && !$0.value.isEmpty }?.value
    }

    func all(_ key: String) -> [String] {
        entries.filter { $0.key == key }.map(\.value)
    }

    var processorCount: Int { all("processor").count }

    var modelName: String? { first("model name") }

    /// "4x Cortex-A76", or "4x Cortex-A55 + 4x Cortex-A76" on big.LITTLE chips, from each
    /// processor's implementer and part numbers; nil when cpuinfo has none (not ARM).
    var armCoreSummary: String? {
        let implementers = all("CPU implementer"), parts = all("CPU part")
        guard !parts.isEmpty else { return nil }
        var counts: [(name: String, count: Int)] = []
        for (index, part) in parts.enumerated() {
            let implementer = index < implementers.count ? implementers[index] : implementers.last ?? ""
            let name = ARMCores.name(implementer: implementer, part: part)
            if let existing = counts.firstIndex(where: { $0.name == name }) {
                counts[existing].count += 1
            } else {
                counts.append((name, 1))
            }
        }
        return counts.map { "\($0.count)x \($0.name)" }.joined(separator: " + ")
    }
}
