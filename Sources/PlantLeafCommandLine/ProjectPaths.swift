import Glibc
import PlantLeafCore

/// Where the default model, its labels and the sample folder are, decided by where the running
/// executable is, never by the working directory: a `labels.txt` in whatever folder the user
/// happens to be in must not rename the classes of a model found somewhere else.
///
/// Two layouts, the model and the labels always taken from the same one:
/// - installed (`make install`, a release archive): `bin/plantleaf` beside
///   `share/plantleaf/plantvillage_int8.tflite` and `share/plantleaf/labels.txt`;
/// - a project checkout: `.build/<config>/plantleaf` below a folder holding
///   `Models/plantvillage_int8.tflite` and `labels.txt`.
package enum ProjectPaths {
    package static let defaultModel = "Models/plantvillage_int8.tflite"
    package static let defaultLabels = "labels.txt"
    package static let sampleFolder = "samples/plantvillage"
    /// The generalist model the second opinion runs, and the leaf reference made from the sample
    /// leaves at set-up (`make setup`), in a checkout; an install keeps both in share/plantleaf.
    package static let defaultGeneralistModel = "Models/" + generalistModelFile
    /// The generalist model's file name, the same in a checkout and an install: MobileNetV1 at
    /// width 0.25 and 128 × 128, chosen by measurement (docs/verdicts.md) for keeping the verdict
    /// floors at a tenth of the leaf model's invoke.
    package static let generalistModelFile = "mobilenet_v1_0.25_128_quant.tflite"
    package static let defaultLeafReference = "Models/leaf-reference.txt"
    /// The reference `plantleaf calibrate` writes, in the user's data folder, which takes the
    /// place of the default one.
    package static let userLeafReference = "plantleaf/leaf-reference.txt"
    package static let version = "0.1.0"

    /// A model and the label file that goes with it, always from the same layout.
    package struct ModelAndLabels: Equatable, Sendable {
        package var modelPath: String
        package var labelsPath: String
    }

    /// The first layout around `executablePath` that holds both the model and its labels. When
    /// none does, the installed layout's paths, so the error names where an install puts them.
    package static func defaultModelAndLabels(executablePath: String? = ExecutableLocation.currentPath()) -> ModelAndLabels {
        let layouts = candidateLayouts(executablePath: executablePath)
        return layouts.first { exists($0.modelPath) && exists($0.labelsPath) } ?? layouts.first
            ?? ModelAndLabels(modelPath: defaultModel, labelsPath: defaultLabels)
    }

    /// The sample folder of the project the executable was built in; nil for an install or a
    /// release archive, which ship no sample photos. Never the working folder's.
    package static func defaultSampleFolder(executablePath: String? = ExecutableLocation.currentPath()) -> String? {
        guard let executablePath else { return nil }
        return ExecutableLocation.projectRootCandidates(executablePath: executablePath)
            .map { ExecutableLocation.path(sampleFolder, in: $0) }.first(where: exists)
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

    /// Environment variable naming libLiteRt.so explicitly; when set, nothing else is searched.
    package static let liteRtVariable = "PLANTLEAF_LITERT_LIB"
    /// Where `make runtime` puts the library, relative to the project root.
    package static let liteRtProjectPath = ".runtime/lib/libLiteRt.so"
    /// Where `make install` and the release archives put it, relative to the prefix.
    package static let liteRtInstalledPath = "lib/plantleaf/libLiteRt.so"

    /// Where plantleaf looks for libLiteRt.so, in order: the variable alone if set; otherwise
    /// beside the executable, PREFIX/lib/plantleaf/ for PREFIX/bin/plantleaf, and the project
    /// folder the executable was built in (walking up from .build/<config>/). Never the working
    /// directory: running plantleaf in a folder must not load a shared library that folder holds.
    package static func liteRtCandidates(environment: [String: String] = currentEnvironment(),
                                        executablePath: String? = ExecutableLocation.currentPath()) -> [String] {
        if let explicit = environment[liteRtVariable], !explicit.isEmpty { return [explicit] }
        guard let executablePath else { return [] }
        let besideExecutable = ExecutableLocation.path("libLiteRt.so", in: ExecutableLocation.parentDirectory(of: executablePath))
        let installed = ExecutableLocation.path(liteRtInstalledPath, in: ExecutableLocation.installPrefix(executablePath: executablePath))
        let projects = ExecutableLocation.projectRootCandidates(executablePath: executablePath).map {
            ExecutableLocation.path(liteRtProjectPath, in: $0)
        }
        return [besideExecutable, installed] + projects
    }

    /// The variables that steer the search, as this process has them.
    package static func currentEnvironment() -> [String: String] {
        guard let value = getenv(liteRtVariable) else { return [:] }
        return [liteRtVariable: String(cString: value)]
    }

    /// The classifier a command runs: the model and labels given, or the defaults of this
    /// layout, with the runtime found as `liteRtCandidates` says, and the generalist check's
    /// model and leaf reference (`secondOpinionOptions`).
    package static func classifierOptions(modelPath: String?, labelsPath: String?, threads: Int,
                                         normalization: Normalization? = nil, crop: CropMode = .center,
                                         verdictPolicy: VerdictPolicy = VerdictPolicy(checks: .classifyDefault),
                                         weightCache: Bool = true, referencePath: String? = nil) -> Classifier.Options {
        let defaults = defaultModelAndLabels()
        let runtime = Interpreter.Options(runtimeLibraryCandidates: liteRtCandidates(), threads: threads,
                                          weightCacheFolder: weightCache ? cacheFolder() : nil)
        return Classifier.Options(modelPath: modelPath ?? defaults.modelPath, labelsPath: labelsPath ?? defaults.labelsPath,
                                  runtime: runtime, normalization: normalization, crop: crop, verdictPolicy: verdictPolicy,
                                  secondOpinion: secondOpinionOptions(referencePath: referencePath))
    }

    /// The generalist model of this layout, and the leaf reference: `referencePath` when given,
    /// else the user's own (`plantleaf calibrate`) when there is one, else this layout's default.
    /// PLANTLEAF_GENERALIST_SIDE runs the generalist at another input side, for measurements
    /// (docs/verdicts.md, with references made at that side).
    package static func secondOpinionOptions(referencePath: String?, executablePath: String? = ExecutableLocation.currentPath(),
                                            environment: [String: String] = dataEnvironment()) -> SecondOpinion.Options {
        let layouts = secondOpinionLayouts(executablePath: executablePath)
        let layout = layouts.first { exists($0.modelPath) } ?? layouts.first
            ?? SecondOpinion.Options(modelPath: defaultGeneralistModel, referencePath: defaultLeafReference)
        let user = userReferencePath(environment: environment).flatMap { exists($0) ? $0 : nil }
        // A value that is no number asks for side 0, which the interpreter refuses by name.
        let side = environment[generalistSideVariable].map { Int($0) ?? 0 }
        return SecondOpinion.Options(modelPath: layout.modelPath, referencePath: referencePath ?? user ?? layout.referencePath,
                                     inputSide: side)
    }

    static func secondOpinionLayouts(executablePath: String?) -> [SecondOpinion.Options] {
        guard let executablePath else { return [] }
        let data = ExecutableLocation.path("share/plantleaf", in: ExecutableLocation.installPrefix(executablePath: executablePath))
        let installed = SecondOpinion.Options(modelPath: data + "/" + generalistModelFile,
                                              referencePath: data + "/leaf-reference.txt")
        let projects = ExecutableLocation.projectRootCandidates(executablePath: executablePath).map {
            SecondOpinion.Options(modelPath: ExecutableLocation.path(defaultGeneralistModel, in: $0),
                                  referencePath: ExecutableLocation.path(defaultLeafReference, in: $0))
        }
        return [installed] + projects
    }

    /// Where `plantleaf calibrate` keeps the user's reference: $XDG_DATA_HOME/plantleaf, else
    /// ~/.local/share/plantleaf (a relative $XDG_DATA_HOME is ignored, as the XDG rules say).
    package static func userReferencePath(environment: [String: String] = dataEnvironment()) -> String? {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/" + userLeafReference }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.local/share/" + userLeafReference
    }

    static let generalistSideVariable = "PLANTLEAF_GENERALIST_SIDE"

    /// $XDG_DATA_HOME, $HOME and $PLANTLEAF_GENERALIST_SIDE, as this process has them.
    package static func dataEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        for name in ["XDG_DATA_HOME", "HOME", generalistSideVariable] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }

    /// The user's cache folder for plantleaf: $XDG_CACHE_HOME/plantleaf, or ~/.cache/plantleaf
    /// (the XDG base directory rules: a relative $XDG_CACHE_HOME is ignored). nil without a home.
    package static func cacheFolder(environment: [String: String] = cacheEnvironment()) -> String? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/plantleaf" }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.cache/plantleaf"
    }

    /// $XDG_CACHE_HOME and $HOME, as this process has them.
    package static func cacheEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        for name in ["XDG_CACHE_HOME", "HOME"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }

    private static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}
