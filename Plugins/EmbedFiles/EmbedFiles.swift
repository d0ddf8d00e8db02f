import Foundation
import PackagePlugin

/// Makes the files in a target's `Embedded/` folder part of its code: `EmbeddedFiles.text`, each
/// file's text by its name under the folder ("Locales/en.json"), so that the binary carries them
/// and needs no files beside it (an installed `plantleaf`, a release archive), while the files stay
/// in the repository as what they are (HTML, CSS, JavaScript, JSON) to be read, diffed and checked.
/// `embed.sh` writes the Swift file, again whenever one of the files changes.
@main
struct EmbedFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        // Each file's name under the folder, and its path.
        let files: [(name: String, url: URL)] = module.sourceFiles.compactMap { file in
            let path = file.url.standardizedFileURL.path
            guard let folder = path.range(of: "/Embedded/") else { return nil }
            return (String(path[folder.upperBound...]), file.url)
        }.sorted { $0.name < $1.name }
        let script = context.package.directoryURL.appending(path: "Plugins/EmbedFiles/embed.sh")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        let pairs: [String] = files.map { $0.name + "=" + $0.url.path }
        let inputs: [URL] = [script] + files.map { $0.url }
        let shell = URL(fileURLWithPath: "/bin/sh")
        return [.buildCommand(displayName: "Embedding \(files.count) files in \(target.name)", executable: shell,
                              arguments: [script.path, output.path] + pairs, inputFiles: inputs, outputFiles: [output])]
    }
}
