import Foundation
import PlantLeafCore
import PlantLeafCamera
import PlantLeafTestSupport
import Testing

/// A damaged model file or something that is no file at all ends `plantleaf classify` with one
/// line and exit code 2, never a crash or a hang. Under `make test-sanitize` these run the
/// AddressSanitizer build of plantleaf, so a memory error or a leak in it fails them too.
@Suite struct ModelInputTests {
    let leaf = TestPaths.plantVillageImages()[0]

    func classify(withModel model: String) throws -> CommandResult {
        try runPlantLeaf(["classify", "--model", model, leaf])
    }

    /// libLiteRt.so 2.3.0 itself dies with SIGSEGV on this file; the model check refuses it first.
    @Test func truncatedModelIsRefusedWithOneLine() throws {
        let bytes = try FileReader.readAll(path: TestPaths.defaultModel)
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let model = folder + "/plantvillage_int8.tflite"
        TestImages.write(Array(bytes.prefix(bytes.count / 2)), to: model)
        let result = try classify(withModel: model)
        #expect(result.status == 2)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.hasPrefix("plantleaf classify: model \(model) is damaged: "))
    }

    /// A named pipe would block a plain open() forever; a folder is no file either.
    @Test func pipeAndFolderAreRefusedWithoutHanging() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let pipe = folder + "/model.tflite"
        #expect(mkfifo(pipe, 0o600) == 0)
        for (model, reason) in [(pipe, "is a FIFO (named pipe), not a regular file"), (folder, "is a directory")] {
            let result = try classify(withModel: model)
            #expect(result.status == 2)
            #expect(result.stderrLines == ["plantleaf classify: cannot read model \(model): \(reason)"])
        }
    }
}
