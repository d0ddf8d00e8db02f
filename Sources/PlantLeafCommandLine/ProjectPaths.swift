import Glibc
import PlantLeafKit

/// Where the default model, its labels and the sample folder are, decided by where the running
/// executable is, never by the working directory: a `labels.txt` in whatever folder the user
/// happens to be in must not rename the classes of a model found somewhere else.
///
/// Two layouts, the model and the labels always taken from the same one:
/// - installed (`make install`, a release archive): `bin/plantleaf` beside
///   `share/plantleaf/plantvillage_int8.tflite` and `share/plantleaf/labels.txt`;
/// - a project checkout: `.build/<config>/plantleaf` below a folder holding
///   `Models/plantvillage_int8.tflite` and `labels.txt`.
public enum ProjectPaths {
    public static let defaultModel = "Models/plantvillage_int8.tflite"
    public static let defaultLabels = "labels.txt"
    public static let sampleFolder = "samples/plantvillage"
    public static let version = "0.1.0"

    /// A model and the label file that goes with it, always from the same layout.
    public struct ModelAndLabels: Equatable, Sendable {
        public var modelPath: String
        public var labelsPath: String
    }

    /// The first layout around `executablePath` that holds both the model and its labels. When
    /// none does, the installed layout's paths, so the error names where an install puts them.
    public static func defaultModelAndLabels(executablePath: String? = LiteRtLibrary.currentExecutablePath()) -> ModelAndLabels {
        let layouts = candidateLayouts(executablePath: executablePath)
        return layouts.first { exists($0.modelPath) && exists($0.labelsPath) } ?? layouts.first
            ?? ModelAndLabels(modelPath: defaultModel, labelsPath: defaultLabels)
    }

    /// The sample folder of the project the executable was built in, if there is one; otherwise
    /// the relative path, so an installed `plantleaf bench` run in a checkout still finds it.
    public static func defaultSampleFolder(executablePath: String? = LiteRtLibrary.currentExecutablePath()) -> String {
        projectRoots(executablePath: executablePath).map { $0 + "/" + sampleFolder }.first(where: exists) ?? sampleFolder
    }

    static func candidateLayouts(executablePath: String?) -> [ModelAndLabels] {
        guard let executablePath else { return [] }
        let binFolder = LiteRtLibrary.parentDirectory(of: executablePath)
        let data = LiteRtLibrary.parentDirectory(of: binFolder) + "/share/plantleaf"
        let installed = ModelAndLabels(modelPath: data + "/plantvillage_int8.tflite", labelsPath: data + "/labels.txt")
        let projects = projectRoots(executablePath: executablePath).map {
            ModelAndLabels(modelPath: $0 + "/" + defaultModel, labelsPath: $0 + "/" + defaultLabels)
        }
        return [installed] + projects
    }

    /// The executable's ancestors up to .build/<config>/'s parent, nearest first.
    static func projectRoots(executablePath: String?) -> [String] {
        guard let executablePath else { return [] }
        var roots: [String] = []
        var directory = LiteRtLibrary.parentDirectory(of: executablePath)
        for _ in 0..<3 where directory != "/" {
            directory = LiteRtLibrary.parentDirectory(of: directory)
            roots.append(directory)
        }
        return roots
    }

    private static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}
