/// Names for the `CPU implementer`/`CPU part` pairs of the cores ARM boards commonly carry.
enum ARMCores {
    static let names: [String: String] = [
        "0x41/0xd03": "Cortex-A53", "0x41/0xd04": "Cortex-A35", "0x41/0xd05": "Cortex-A55",
        "0x41/0xd07": "Cortex-A57", "0x41/0xd08": "Cortex-A72", "0x41/0xd09": "Cortex-A73",
        "0x41/0xd0a": "Cortex-A75", "0x41/0xd0b": "Cortex-A76", "0x41/0xd0c": "Neoverse-N1",
        "0x41/0xd0d": "Cortex-A77", "0x41/0xd40": "Neoverse-V1", "0x41/0xd41": "Cortex-A78",
        "0x41/0xd42": "Cortex-A78AE", "0x41/0xd44": "Cortex-X1", "0x41/0xd46": "Cortex-A510",
        "0x41/0xd47": "Cortex-A710", "0x41/0xd48": "Cortex-X2", "0x41/0xd49": "Neoverse-N2",
        "0x41/0xd4b": "Cortex-A78C", "0x41/0xd4f": "Neoverse-V2", "0x41/0xd80": "Cortex-A520",
        "0x41/0xd81": "Cortex-A720", "0x4e/0x004": "NVIDIA Carmel",
    ]

    /// The core's name, or the raw numbers when the pair is not in the table.
    static func name(implementer: String, part: String) -> String {
        names["\(implementer.lowercased())/\(part.lowercased())"] ?? "ARM core (implementer \(implementer), part \(part))"
    }
}
