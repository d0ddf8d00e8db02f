import Foundation
import Glibc
import PlantLeafTestSupport
import Testing

/// Every kind of bad input, in one batch and one by one: each is a one-line error naming the
/// file, the rest of the batch is still classified, and the exit code says some failed.
@Suite struct ClassifyBadInputTests {
    static let goodSample = TestPaths.appleScabLeaf

    /// Makes the bad files in `folder`; returns their paths, by name.
    static func makeBadFiles(in folder: String) throws -> [String: String] {
        let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: goodSample)))
        let leafPNG = TestImages.png(TestImages.quadrants(width: 64, height: 64).pixels, width: 64, height: 64, colorType: 2, bitDepth: 8)
        let smallJPEG = TestImages.jpeg(TestImages.quadrants(width: 16, height: 16).pixels, width: 16, height: 16)
        let contents: [String: [UInt8]] = [
            "zero-bytes.jpg": [],
            "truncated.jpg": Array(good.prefix(good.count / 2)),
            "truncated.png": Array(leafPNG.prefix(leafPNG.count / 2)),
            "bad-crc.png": BadFiles.pngWithBadCRC(leafPNG),
            "text.jpg": Array("this is a shopping list, not a photo\n".utf8),
            "bomb.jpg": BadFiles.jpegClaiming(width: 60000, height: 60000, from: smallJPEG),
            "bomb.png": BadFiles.pngClaiming(width: 60000, height: 60000, from: leafPNG),
            "unreadable.jpg": good,
        ]
        var files: [String: String] = [:]
        for (name, bytes) in contents {
            files[name] = folder + "/" + name
            TestImages.write(bytes, to: folder + "/" + name)
        }
        chmod(folder + "/unreadable.jpg", 0)
        return files
    }

    @Test func badFilesFailOneByOneWhileTheRestOfTheBatchIsClassified() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let files = try Self.makeBadFiles(in: folder)
        let emptyFolder = TestPaths.temporaryDirectory("empty")
        defer { TestPaths.removeTemporaryDirectory(emptyFolder) }
        let missing = folder + "/no-such-leaf.jpg"
        let inputs = [Self.goodSample] + files.values.sorted() + [emptyFolder, missing, Self.goodSample]
        let result = try runPlantLeafUnprivileged(["classify", "--format", "json"] + inputs)

        #expect(result.status == 1)
        let lines = result.stdoutLines.compactMap(jsonObject)
        #expect(lines.count == inputs.count, "one JSON object per input: \(result.stdout)")
        let classified = lines.filter { $0["top"] != nil }
        #expect(classified.count == 2 && classified.allSatisfy { ($0["path"] as? String) == Self.goodSample })
        let failed = Dictionary(uniqueKeysWithValues: lines.compactMap { object -> (String, String)? in
            guard let path = object["path"] as? String, let error = object["error"] as? String else { return nil }
            return (path, error)
        })
        let expectedReasons = [
            files["zero-bytes.jpg"]!: "empty file",
            files["truncated.jpg"]!: "truncated JPEG",
            files["truncated.png"]!: "truncated PNG",
            files["bad-crc.png"]!: "CRC error",
            files["text.jpg"]!: "not a JPEG or PNG photo: this file is text",
            files["bomb.jpg"]!: "JPEG claims 60000x60000 pixels",
            files["bomb.png"]!: "PNG claims 60000x60000 pixels",
            files["unreadable.jpg"]!: "permission denied",
            emptyFolder: "folder holds no images",
            missing: "no such file or directory",
        ]
        for (path, reason) in expectedReasons {
            #expect(failed[path]?.contains(reason) == true, "\(path): \(failed[path] ?? "no error")")
            let stderrLines = result.stderrLines.filter { $0.contains(path) }
            #expect(stderrLines.count == 1 && stderrLines[0].contains(reason), "stderr for \(path): \(stderrLines)")
        }
        #expect(result.stderrLines.last == "plantleaf classify: 10 of 12 inputs failed")
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("INFO:"))
    }

    @Test func textModeReportsErrorsOnStderrOnly() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let files = try Self.makeBadFiles(in: folder)
        let result = try runPlantLeaf(["classify", files["truncated.png"]!, Self.goodSample])
        #expect(result.status == 1)
        #expect(result.stdoutLines.first == Self.goodSample)
        #expect(!result.stdout.contains("truncated"))
        #expect(result.stderrLines.first == "plantleaf classify: \(files["truncated.png"]!): truncated PNG: file is truncated")
    }
}
