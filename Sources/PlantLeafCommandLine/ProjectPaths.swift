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
    public static func defaultModelAndLabels(executablePath: String? = ExecutableLocation.currentPath()) -> ModelAndLabels {
        let layouts = candidateLayouts(executablePath: executablePath)
        return layouts.first { exists($0.modelPath) && exists($0.labelsPath) } ?? layouts.first
            ?? ModelAndLabels(modelPath: defaultModel, labelsPath: defaultLabels)
    }

    /// The sample folder of the project the executable was built in, if there is one; otherwise
    /// the relative path, so an installed `plantleaf bench` run in a checkout still finds it.
    public static func defaultSampleFolder(executablePath: String? = ExecutableLocation.currentPath()) -> String {
        guard let executablePath else { return sampleFolder }
        return ExecutableLocation.projectRootCandidates(executablePath: executablePath)
            .map { ExecutableLocation.path(sampleFolder, in: $0) }.first(where: exists) ?? sampleFolder
    }

    static func candidateLayouts(executablePath: String?) -> [ModelAndLabels] {
        guard let executablePath else { return [] }
        let data = ExecutableLocation.path("share/plantleaf", in: ExecutableLocation.installPrefix(executablePath: executablePath))
        let installed = ModelAndLabels(modelPath: data + "/plantvillage_int8.tflite", labelsPath: data + "/labels.txt")
        let projects = ExecutableLocation.projectRootCandidates(executablePath: executablePath).map {
            ModelAndLabels(modelPath: ExecutableLocation.path(defaultModel, in: $0), labelsPath: ExecutableLocation.path(defaultLabels, in: $0))
        }
        return [installed] + projects
    }

    private static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}
