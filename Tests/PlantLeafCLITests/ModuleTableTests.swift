import Foundation
import PlantLeafTestSupport
import Testing

/// docs/pipeline.md's table of modules says what Package.swift declares: every PlantLeaf library
/// module, and each one's dependencies.
@Suite struct ModuleTableTests {
    /// Each `.target(name: "PlantLeaf…", dependencies: [...])` of Package.swift, by name.
    static func declared() throws -> [String: Set<String>] {
        let manifest = try String(contentsOfFile: TestPaths.root + "/Package.swift", encoding: .utf8)
        var modules: [String: Set<String>] = [:]
        // A declaration's dependency list may run over two lines: read up to its closing bracket.
        for declaration in manifest.components(separatedBy: ".target(name: \"").dropFirst() where declaration.hasPrefix("PlantLeaf") {
            let name = String(declaration.prefix { $0 != "\"" })
            guard name != "PlantLeafTestSupport" else { continue }
            let list = declaration.components(separatedBy: "dependencies: [").dropFirst().first?.prefix { $0 != "]" } ?? ""
            modules[name] = Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) })
        }
        return modules
    }

    /// The table's rows: the module in backquotes in the first cell, the dependencies in the last.
    static func documented() throws -> [String: Set<String>] {
        let page = try String(contentsOfFile: TestPaths.root + "/docs/pipeline.md", encoding: .utf8)
        var modules: [String: Set<String>] = [:]
        for line in page.split(separator: "\n") where line.hasPrefix("| `PlantLeaf") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let name = cells[0].split(separator: "`")[0]
            modules[String(name)] = Set(cells[cells.count - 1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        return modules
    }

    @Test func theTableIsThePackagesModules() throws {
        let declared = try Self.declared(), documented = try Self.documented()
        #expect(declared.count >= 8, "Package.swift's targets were not found: \(declared)")
        #expect(Set(documented.keys) == Set(declared.keys))
        for (module, dependencies) in declared.sorted(by: { $0.key < $1.key }) {
            #expect(documented[module] == dependencies, "\(module): Package.swift \(dependencies.sorted()), docs/pipeline.md \(documented[module]?.sorted() ?? [])")
        }
    }
}
