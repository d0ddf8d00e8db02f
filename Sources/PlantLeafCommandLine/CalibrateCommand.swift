import PlantLeafCore
import PlantLeafSupport

/// `plantleaf calibrate DIR`: the grower's own leaf reference for the generalist check, made from
/// photos of their crop in their light with their camera.
enum CalibrateCommand: Subcommand {
    static let configuration = CommandConfiguration(
        name: "calibrate", operands: "DIR", abstract: "teach the generalist check your own leaf photos (your crop, camera, light)",
        options: CalibrateOptions.optionTable, helpLabelWidth: 19)

    static let helpIntroduction = """
        USAGE: plantleaf calibrate [options] DIR...

        Makes the leaf reference the generalist check compares pictures with (docs/verdicts.md)
        from your own photos of single leaves: at least \(LeafReference.minimumPhotos), of your crop, with your camera and
        light. Shows how many of your photos, and of the sample leaves when this is a checkout,
        the check finds clearly leaf-like with the reference in use now and with the new one, then
        writes the new one, whole or not at all, where classify, camera and serve find it. Photos
        without green leaf in them are refused by name, and nothing is written. Delete the file
        to go back to the reference made from the sample leaves.

        OPTIONS:
        """

    static let helpConclusion = """
        EXIT CODES: 0 written, 2 usage, too few photos, photos that are not leaves, the model or
        runtime, or a reference that cannot be written (the one before is left as it was).
        """

    static func run(_ arguments: [String], bytes _: [[UInt8]]) -> Int32 {
        let options: CalibrateOptions
        do {
            options = try CalibrateOptions.parse(arguments)
        } catch {
            Console.error("plantleaf calibrate: \(error) (see plantleaf calibrate --help)")
            return ExitCode.setupFailure
        }
        if options.help {
            Console.out(help)
            return ExitCode.success
        }
        guard let outputPath = options.outputPath ?? ProjectPaths.userReferencePath() else {
            Console.error("plantleaf calibrate: no home folder to keep the reference in: give --output FILE")
            return ExitCode.setupFailure
        }
        // The reference in use now, to compare with: the one classify would load.
        let current = ProjectPaths.secondOpinionOptions(referencePath: nil)
        let leafOptions = ProjectPaths.classifierOptions(modelPath: nil, labelsPath: nil, threads: options.threads)
        let opinion: SecondOpinion
        do {
            opinion = try SecondOpinion(options: SecondOpinion.Options(modelPath: current.modelPath, referencePath: nil, inputSide: current.inputSide), runtime: leafOptions.runtime)
        } catch {
            Console.error("plantleaf calibrate: \(error): run `make setup`, or reinstall plantleaf")
            return ExitCode.setupFailure
        }
        let policy = VerdictPolicy(checks: .all)
        let size = FrameSize(width: 224, height: 224)
        let gallery: LeafGallery
        do {
            gallery = try LeafGallery(ImageFiles.expand(options.photoPaths.map { PathName($0) }), opinion: opinion, size: size)
        } catch {
            Console.error("plantleaf calibrate: \(Remedy.line(error))")
            return ExitCode.setupFailure
        }
        for failure in gallery.failures { Console.error("plantleaf calibrate: \(failure.path.escaped): \(failure.reason) (left out)") }
        let notLeaves = gallery.photos.filter { $0.greenShare < policy.minimumGreenShare }
        guard notLeaves.isEmpty else {
            for photo in notLeaves { Console.error("plantleaf calibrate: \(photo.path.escaped): no green leaf in it") }
            Console.error("plantleaf calibrate: \(notLeaves.count) of \(gallery.photos.count) photos are not leaf photos: take them out and run it again (nothing written)")
            return ExitCode.setupFailure
        }
        let reference: LeafReference
        do {
            reference = try LeafReference(meanOf: gallery.photos.map(\.distribution), inputSide: opinion.inputSide,
                                          generalist: opinion.generalist)
        } catch {
            Console.error("plantleaf calibrate: \(error) in \(options.photoPaths.joined(separator: ", ")) (nothing written)")
            return ExitCode.setupFailure
        }
        let before = current.referencePath.flatMap { try? LeafReference.load(path: $0, expectedClasses: opinion.classCount, inputSide: opinion.inputSide,
                                                                                      generalist: opinion.generalist) }
        func columns(_ name: String, _ before: String, _ after: String) -> String {
            func padded(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
            return name + String(repeating: " ", count: max(1, 44 - name.count)) + padded(before, 8) + padded(after, 8)
        }
        let cut: String = OptionRange.number(policy.clearlyLeafFrom)
        var lines = [columns("clearly leaf-like (leaf-likeness \(cut) and up)", "before", "after")]
        func row(_ name: String, _ photos: LeafGallery) -> String {
            let total = photos.photos.count
            let old = before.map { "\(photos.passing($0, from: policy.clearlyLeafFrom))/\(total)" } ?? "-"
            return columns(name, old, "\(photos.passing(reference, from: policy.clearlyLeafFrom))/\(total)")
        }
        lines.append(row("your photos", gallery))
        if let samples = ProjectPaths.defaultSampleFolder(), !options.photoPaths.contains(where: { FileWriter.sameFile($0, samples) }),
           let sampleGallery = try? LeafGallery(ImageFiles.expand([PathName(samples)]), opinion: opinion, size: size) {
            lines.append(row("the sample leaves (\(ProjectPaths.sampleFolder))", sampleGallery))
        }
        Console.out(lines.joined(separator: "\n"))
        do {
            try makeFolders(ExecutableLocation.parentDirectory(of: outputPath))
            try FileWriter.replace(Array(reference.text.utf8), at: outputPath)
        } catch {
            Console.error("plantleaf calibrate: cannot write the reference \(outputPath): \(error) (the one before is left as it was)")
            return ExitCode.setupFailure
        }
        Console.out("wrote \(outputPath) (\(reference.photoCount) photos); delete it to go back to the default reference")
        return ExitCode.success
    }

    /// `path` and the folders above it that are missing (~/.local/share/plantleaf on a new account).
    private static func makeFolders(_ path: String) throws(FileWriteError) {
        var folder = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            folder += "/" + component
            try FileWriter.makeDirectory(folder)
        }
    }
}
