import PlantLeafCore
import PlantLeafBench

/// `plantleaf bench compare --html FILE`: checks FILE before any report is read, and writes the
/// page after the text comparison, whole or not at all.
enum CompareHTMLOption {
    /// `path` when it can be written and is none of the reports.
    ///
    /// - Throws: `UsageError` when the page would overwrite a report or cannot be written.
    static func check(_ path: String?, reports: [String]) throws(UsageError) -> String? {
        guard let path else { return nil }
        if let report = reports.first(where: { FileWriter.sameFile(path, $0) }) {
            throw UsageError("--html names the report \(report): give the page a file of its own")
        }
        do {
            try FileWriter.checkWritable(path)
        } catch {
            throw UsageError("cannot write --html file \(path): \(error)")
        }
        return path
    }

    /// Writes the page of `reports` to `path`; the exit code.
    static func write(_ reports: [(path: String, report: StoredBenchReport)], to path: String) -> Int32 {
        do {
            try FileWriter.replace(Array(BenchHTML.render(reports).utf8), at: path)
        } catch {
            Console.error("plantleaf bench compare: \(Remedy.line(BenchError.outputUnwritable(path: path, reason: error.reason)))")
            return ExitCode.setupFailure
        }
        return ExitCode.success
    }
}
