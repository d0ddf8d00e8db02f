import Glibc
import PlantLeafCore

// leaf-check RUNTIME MODEL LABELS IMAGE...: the top three classes of each image.
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 4 else {
    print("usage: leaf-check LIBLITERT_SO MODEL LABELS IMAGE...")
    exit(2)
}
let (runtime, model, labels) = (arguments[1], arguments[2], arguments[3])
let options = Classifier.Options(modelPath: model, labelsPath: labels,
                                 runtime: Interpreter.Options(runtimeLibraryPath: runtime, threads: 2))
do {
    let classifier = try Classifier(options: options)
    for path in arguments.dropFirst(3) {
        let result = try classifier.classify(path: path)
        let names = result.top.map { "\(Labels.displayName($0.label)) \($0.score)" }
        print(path, names.joined(separator: ", "), "invoke \(result.timings.invoke) ms")
    }
} catch {
    print("leaf-check: \(error)")
    exit(1)
}
