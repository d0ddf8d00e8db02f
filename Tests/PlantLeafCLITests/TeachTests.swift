import Foundation
import PlantLeafCore
import PlantLeafTestSupport
import Testing

/// The pooled features read from the scoring invoke, against the reference pipeline's `Mean`
/// tensor; and teaching end to end with the built binary on the bean field photos.
@Suite struct TeachTests {
    static let beans = TestPaths.root + "/../shared/data/beans"

    /// The reference pipeline's int8 `Mean` values for one image (PIL bilinear resize of the whole
    /// image, as reference_classify.py does, read with every tensor preserved).
    static func referenceMean(_ path: String) throws -> [Int] {
        let script = """
            import sys, numpy as np
            from PIL import Image
            from ai_edge_litert.interpreter import Interpreter
            it = Interpreter(model_path=sys.argv[1], experimental_preserve_all_tensors=True); it.allocate_tensors()
            inp = it.get_input_details()[0]; _, h, w, _ = inp["shape"]
            x = np.asarray(Image.open(sys.argv[2]).convert("RGB").resize((w, h), Image.BILINEAR), dtype=np.uint8)
            it.set_tensor(inp["index"], (x.astype(np.int16) - 128).astype(np.int8)[None]); it.invoke()
            mean = [t for t in it.get_tensor_details() if t["name"] == "Mean"][0]
            print(" ".join(str(int(v)) for v in it.get_tensor(mean["index"]).ravel()))
            """
        let result = try runCommand(ReferencePipeline.python, ["-c", script, TestPaths.defaultModel, path])
        #expect(result.status == 0, "reference stderr: \(result.stderr)")
        return result.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    }

    @Test(.enabled(if: ReferencePipeline.available, "needs .venv/bin/python with Pillow and ai_edge_litert (scripts/setup.sh reference)"))
    func featuresAreTheReferencePipelinesMean() throws {
        var options = Classifier.Options(modelPath: TestPaths.defaultModel, labelsPath: TestPaths.labels,
                                         runtime: Interpreter.Options(runtimeLibraryPath: TestPaths.root + "/.runtime/lib/libLiteRt.so"),
                                         crop: .none, verdictPolicy: VerdictPolicy(checks: []))
        options.readsFeatures = true
        let classifier = try Classifier(options: options)
        #expect(classifier.featureCount == 1280)
        let scale = 0.020828809589147568, zeroPoint = -128.0
        for path in Array(TestPaths.plantVillageImages().prefix(4)) {
            let result = try classifier.classify(path: path)
            let ours = try #require(result.features)
            let reference = try Self.referenceMean(path).map { (Double($0) - zeroPoint) * scale }
            #expect(ours.count == 1280 && reference.count == 1280)
            // Within one quantisation step everywhere (the int8 inputs are the reference's).
            let worst = zip(ours, reference).map { abs(Double($0) - $1) }.max() ?? .infinity
            #expect(worst <= scale + 1e-6, "\(path): features differ from the reference's by up to \(worst)")
        }
        // Reading the features leaves the scores as they were.
        options.readsFeatures = false
        let plain = try Classifier(options: options)
        let path = TestPaths.plantVillageImages()[0]
        #expect(try plain.classify(path: path).top == (try classifier.classify(path: path)).top)
    }

    /// Copies `count` photos of each bean class into DIR/CLASS, and returns the rest of each class.
    static func beanFolders(_ directory: String, count: Int) throws -> (taught: [String: String], rest: [String: [String]]) {
        var taught: [String: String] = [:], rest: [String: [String]] = [:]
        for name in ["angular_leaf_spot", "bean_rust", "healthy"] {
            let photos = try FileManager.default.contentsOfDirectory(atPath: beans + "/" + name).sorted()
            let folder = directory + "/" + name
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for photo in photos.prefix(count) { try FileManager.default.copyItem(atPath: beans + "/\(name)/\(photo)", toPath: folder + "/" + photo) }
            taught[name] = folder
            rest[name] = photos.dropFirst(count).prefix(6).map { beans + "/\(name)/\($0)" }
        }
        return (taught, rest)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: beans), "needs ../shared/data/beans"))
    func beansTaughtFromFoldersAreNamedAndTravelByExport() throws {
        let directory = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(directory) }
        let environment = ["XDG_STATE_HOME": directory + "/state"]
        let lessons = directory + "/lessons.sqlite"
        let (taught, rest) = try Self.beanFolders(directory, count: 8)
        let names = ["angular_leaf_spot": "فاصوليا — تبقع الأوراق الزاوي", "bean_rust": "Bean — rust", "healthy": "Bean — healthy"]
        for (folder, path) in taught {
            let result = try runPlantLeaf(["teach", "add", "--lessons", lessons, "--class", names[folder]!, path], environment: environment,
                                          timeLimit: 300)
            #expect(result.status == 0, "stderr: \(result.stderr)")
        }
        let list = try runPlantLeaf(["teach", "list", "--lessons", lessons], environment: environment)
        #expect(list.stdout.contains("24 lessons of 3 classes") && list.stdout.contains(names["angular_leaf_spot"]!))

        let photos = rest.values.flatMap { $0 }.sorted()
        func answers(_ file: String) throws -> [String: String] {
            let result = try runPlantLeaf(["classify", "--format", "json", "--lessons", file] + photos, environment: environment, timeLimit: 300)
            #expect(result.status == 0, "stderr: \(result.stderr)")
            var byPath: [String: String] = [:]
            for line in result.stdoutLines {
                let object = try #require(jsonObject(line))
                byPath[object["path"] as? String ?? ""] = "\(object["answer_from"] ?? "") \(object["taught"] ?? "-") \(object["verdict"] ?? "")"
            }
            return byPath
        }
        let before = try answers(lessons)
        let right = photos.count { photo in
            let folder = URL(fileURLWithPath: photo).deletingLastPathComponent().lastPathComponent
            return before[photo]?.hasPrefix("lessons \(names[folder]!) ") == true
        }
        // Most of the held-out photos are named by the lessons, and rightly (the beans' floor is 0.72 at 10 a class).
        #expect(right * 10 >= photos.count * 6, "\(right) of \(photos.count) named right: \(before)")

        let exported = directory + "/shared.sqlite", neighbour = directory + "/neighbour.sqlite"
        #expect(try runPlantLeaf(["teach", "export", exported, "--lessons", lessons], environment: environment).status == 0)
        let imported = try runPlantLeaf(["teach", "import", exported, "--lessons", neighbour], environment: environment)
        #expect(imported.status == 0 && imported.stderr.contains("24 lessons"), "stderr: \(imported.stderr)")
        #expect(try answers(neighbour) == before)

        // The Arabic name is shown as taught, in the text output in either language.
        let arabicPhoto = try #require(rest["angular_leaf_spot"]?.first { before[$0]?.hasPrefix("lessons \(names["angular_leaf_spot"]!)") == true })
        for language in ["ar", "en"] {
            let text = try runPlantLeaf(["classify", "--lang", language, "--lessons", lessons, arabicPhoto], environment: environment)
            #expect(text.stdout.contains(names["angular_leaf_spot"]!), "\(language): \(text.stdout)")
        }
    }

    /// Lessons keep the model they were taught with: another model's features are never compared
    /// with them, even of the same length (MobileNetV2's pool has 1280 values too).
    @Test func lessonsOfAnotherModelAreNotUsed() throws {
        let directory = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(directory) }
        let environment = ["XDG_STATE_HOME": directory + "/state"]
        let lessons = directory + "/lessons.sqlite"
        let leaf = TestPaths.plantVillageImages()[0]
        let generalist = ["--model", TestPaths.models + "/mobilenet_v2_1.0_224_quant.tflite", "--labels", TestPaths.samples + "/imagenet/imagenet_labels.txt"]
        let taught = try runPlantLeaf(["teach", "add", "--lessons", lessons, "--class", "Mine", leaf] + generalist, environment: environment, timeLimit: 300)
        #expect(taught.status == 0, "stderr: \(taught.stderr)")
        let result = try runPlantLeaf(["classify", "--format", "json", "--lessons", lessons, leaf], environment: environment)
        #expect(result.status == 0 && result.stderr.contains("taught with another model"), "stderr: \(result.stderr)")
        #expect(result.stdout.contains(#""answer_from": "model""#))
        let again = try runPlantLeaf(["teach", "add", "--lessons", lessons, "--class", "Mine", leaf], environment: environment, timeLimit: 300)
        #expect(again.status == 2 && again.stderr.contains("taught with another model"), "stderr: \(again.stderr)")
    }

    @Test func badTeachingLeavesTheLessonsAsTheyWere() throws {
        let directory = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(directory) }
        let environment = ["XDG_STATE_HOME": directory + "/state"]
        let lessons = directory + "/lessons.sqlite"
        let leaf = TestPaths.plantVillageImages()[0]
        #expect(try runPlantLeaf(["teach", "add", "--lessons", lessons, "--class", "Mine", leaf], environment: environment, timeLimit: 300).status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: lessons))
        let empty = directory + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let cases: [([String], String)] = [
            (["--class", "", leaf], "class name is empty"),
            (["--class", String(repeating: "ب", count: 5_000), leaf], "characters, over"),
            (["--class", "Mine", empty], "no photos"),
            (["--class", "Mine", leaf, TestPaths.samples + "/imagenet/cat_720p.jpg"], "not a leaf photo"),
        ]
        for (arguments, words) in cases {
            let result = try runPlantLeaf(["teach", "add", "--lessons", lessons] + arguments, environment: environment, timeLimit: 300)
            #expect(result.status == 2 && result.stderr.contains(words), "\(arguments.last!): \(result.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: lessons)) == bytes)
        }
        let damaged = directory + "/damaged.sqlite"
        try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: damaged))
        for command in [["teach", "list"], ["classify", leaf]] {
            let result = try runPlantLeaf(command + ["--lessons", damaged], environment: environment)
            #expect(result.status == 2 && result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("damaged"), "\(result.stderr)")
        }
    }
}
