import Foundation
import PlantLeafTestSupport
import Testing

/// A damaged or foreign model file must end `plantleaf classify` with one clear line and exit
/// code 2, never a crash, whatever the bytes are.
@Suite struct ModelInputTests {
    let leaf = TestPaths.plantVillageImages()[0]

    func classify(withModel model: String) throws -> CommandResult {
        try runPlantLeaf(["classify", "--model", model, leaf])
    }

    @Test func textFileIsRefusedBeforeTheRuntimeSeesIt() throws {
        let folder = TestPaths.temporaryDirectory()
        let model = folder + "/notes.tflite"
        TestImages.write(Array("these are not weights, just some words in a text file\n".utf8), to: model)
        let result = try classify(withModel: model)
        #expect(result.status == 2)
        #expect(result.stderrLines == ["plantleaf classify: \(model) is not a TensorFlow Lite model: no TFL3 identifier at byte 4"])
    }

    /// A named pipe would block a plain open() forever; a folder is no file either.
    @Test func pipeAndFolderAreRefusedWithoutHanging() throws {
        let folder = TestPaths.temporaryDirectory()
        let pipe = folder + "/model.tflite"
        #expect(mkfifo(pipe, 0o600) == 0)
        for model in [pipe, folder] {
            let result = try classify(withModel: model)
            #expect(result.status == 2)
            #expect(result.stderrLines == ["plantleaf classify: cannot read model \(model): not a regular file"])
        }
    }
}
