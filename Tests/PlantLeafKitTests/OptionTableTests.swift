import PlantLeafCommandLine
import Testing

/// The option tables are both what the parsers accept and what the help texts list: each name
/// once, -h the same flag as --help, and an option described in another's lines named there.
@Suite struct OptionTableTests {
    static let tables: [(command: String, table: [OptionSpec])] = [
        ("classify", ClassifyOptions.optionTable),
        ("camera", CameraCommandOptions.optionTable),
        ("bench", BenchOptions.optionTable),
        ("bench compare", BenchOptions.compareOptionTable),
    ]

    @Test func everyNameIsDeclaredOnce() {
        for (command, table) in Self.tables {
            let names: [String] = table.flatMap(\.names)
            #expect(Set(names).count == names.count, "\(command): \(names)")
        }
    }

    @Test func shortHelpIsTheHelpFlag() throws {
        for (command, table) in Self.tables {
            let parsed = try Arguments(["-h"], options: table)
            #expect(parsed.has("--help"), "\(command)")
        }
    }

    /// An option without lines of its own would be missing from the help unless the option it
    /// qualifies names it.
    @Test func mentionedOptionsAreNamedInTheirHostsLines() {
        for (command, table) in Self.tables {
            for option in table {
                guard case .mentionedIn(let host) = option.help else { continue }
                let hostHelp: OptionHelp? = table.first { $0.name == host }?.help
                guard case .lines(let lines)? = hostHelp else {
                    Issue.record("\(command): \(option.name) is mentioned in \(host), which has no lines of its own")
                    continue
                }
                let text: String = lines.joined(separator: " ")
                #expect(text.contains(option.name + " "), "\(command): \(option.name) is not named in \(host)'s lines")
            }
        }
    }
}
