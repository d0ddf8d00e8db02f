import Foundation
import PlantLeafTestSupport
import Testing

/// Files made to cost too much or to hide missing image data, each in a batch between two good
/// samples: each gets one error line naming what it hit, the good ones are still classified,
/// the exit code is 1, and the process stays within its memory budget.
@Suite struct HostileImageTests {
    static let goodSample = TestPaths.appleScabLeaf
    /// What classifying one image may cost in resident memory, model and runtime included.
    static let peakResidentLimitKiB = 120 * 1024

    static func sample() throws -> [UInt8] { try [UInt8](Data(contentsOf: URL(fileURLWithPath: goodSample))) }

    /// Runs `plantleaf classify` on good sample, `bytes` (as `name`), good sample; checks the
    /// batch went on and the memory stayed bounded; returns the error line and the measurement.
    @discardableResult
    static func classifyBetweenGoodSamples(_ bytes: [UInt8], name: String, expectFailure: Bool = true)
        throws -> (errorLine: String?, measured: MeasuredResult) {
        let folder = TestPaths.temporaryDirectory(name)
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/" + name
        TestImages.write(bytes, to: path)
        // One worker, so the peak is one interpreter's and one image's. A 120-megapixel image
        // takes minutes under AddressSanitizer or qemu-user.
        let measured = try runPlantLeafMeasured(["classify", "--jobs", "1", "--format", "json", goodSample, path, goodSample],
                                                timeLimit: 1800)
        let result = measured.result
        let lines = result.stdoutLines.compactMap(jsonObject)
        #expect(lines.count == 3, "one JSON object per input: \(result.stdout) \(result.stderr)")
        let classified = lines.filter { $0["top"] != nil }.compactMap { $0["path"] as? String }
        #expect(classified.filter { $0 == goodSample }.count == 2, "the batch went on: \(result.stdout)")
        // The model and runtime alone take tens of megabytes: a peak below that was not sampled.
        if TestPaths.checksFloors {
            #expect(measured.peakResidentKiB > 10 * 1024 && measured.peakResidentKiB < peakResidentLimitKiB,
                    "\(name): peak RSS \(measured.peakResidentKiB) KiB")
        }
        #expect(!result.stderr.contains("Fatal error"))
        guard expectFailure else {
            #expect(result.status == 0, "\(name): \(result.stderr)")
            return (nil, measured)
        }
        #expect(result.status == 1)
        let errorLines = result.stderrLines.filter { $0.contains(path) }
        #expect(errorLines.count == 1, "one error line for \(name): \(result.stderr)")
        return (errorLines.first, measured)
    }

    static func expectError(_ bytes: [UInt8], name: String, saying reason: String) throws {
        let (line, _) = try classifyBetweenGoodSamples(bytes, name: name)
        #expect(line?.contains(reason) == true, "\(name): \(line ?? "no error line")")
    }

    // MARK: Missing image data (a file that stops early must be refused, never classified as if it were whole)

    @Test func jpegCutShortButEndingWithAnEndMarkerIsRefused() throws {
        try Self.expectError(BadFiles.jpegCut(try Self.sample(), keeping: 1024), name: "cut-at-1k.jpg",
                             saying: "JPEG image data missing: a scan's entropy-coded data stops before its last block")
    }

    @Test func jpegWithNoScanDataIsRefused() throws {
        try Self.expectError(BadFiles.jpegWithoutScanData(try Self.sample()), name: "no-scan-data.jpg",
                             saying: "JPEG image data missing: a scan's entropy-coded data stops before its last block")
    }

    @Test func progressiveJPEGMissingItsLaterScansIsRefused() throws {
        let picture = TestImages.quadrants(width: 64, height: 64)
        let progressive = TestImages.jpeg(picture.pixels, width: 64, height: 64, progressive: true)
        // jpeg_simple_progression: DC of all components, then luma AC 1-5, then chroma, ...
        try Self.expectError(BadFiles.jpegKeepingScans(2, of: progressive), name: "two-scans.jpg",
                             saying: "JPEG image data missing: progressive scans never sent 58 of the 64 coefficients of component 1")
    }

    @Test func twelveBitAndLosslessJPEGsAreNotSupportedRatherThanCorrupt() throws {
        let small = TestImages.jpeg(TestImages.quadrants(width: 16, height: 16).pixels, width: 16, height: 16)
        try Self.expectError(BadFiles.jpegWithPrecision(12, from: small), name: "twelve-bit.jpg",
                             saying: "JPEG not supported: 12-bit samples (only 8-bit JPEGs are)")
        try Self.expectError(BadFiles.jpegRelabelled(asFrameMarker: 0xC3, from: small), name: "lossless.jpg",
                             saying: "JPEG not supported: lossless JPEG (SOF3)")
    }

    // MARK: Budgets (a small file must not cost unbounded memory or time)

    @Test func pngChunkDeclaringTwoGigabytesHitsTheChunkBudget() throws {
        // 57 bytes: signature, IHDR, and a tEXt chunk whose length says 2^31 - 1.
        let png = BadFiles.pngHeader(width: 16, height: 16) + BadFiles.bigEndian32(0x7FFF_FFFF) + Array("tEXtab".utf8)
        #expect(png.count < 64)
        try Self.expectError(png, name: "huge-text.png",
                             saying: "PNG over budget: tEXt chunk declares 2147483647 bytes, above the 8388608-byte chunk budget")
    }

    @Test func progressiveHeaderNeedingHundredsOfMegabytesHitsTheMemoryBudget() throws {
        let picture = TestImages.quadrants(width: 16, height: 16)
        let progressive = TestImages.jpeg(picture.pixels, width: 16, height: 16, progressive: true)
        // 10000 x 10000 is under the pixel limit, but its coefficients alone would take 300 MB.
        let claim = BadFiles.jpegClaiming(width: 10000, height: 10000, from: progressive, frameMarker: 0xC2)
        try Self.expectError(claim, name: "progressive-header.jpg", saying: "JPEG over budget: needs more than the 96 MiB decoder memory budget")
    }

    @Test func progressiveJPEGWithThousandsOfScansHitsTheWorkBudget() throws {
        let picture = TestImages.quadrants(width: 512, height: 512)
        let progressive = TestImages.jpeg(picture.pixels, width: 512, height: 512, quality: 80, progressive: true)
        // Each scan costs 512 x 512 + 65536 = 327680: the budget of 500 million ends it at scan 1526.
        let many = BadFiles.jpegRepeatingScan(progressive, times: 3000)
        try Self.expectError(many, name: "many-scans.jpg",
                             saying: "JPEG over budget: 1526 progressive scans of 512x512 pixels exceed the work budget")
    }

    @Test func pngImageDataPastTheImageIsLeftUnread() throws {
        // A 16x16 image whose zlib stream goes on for 4 GiB more: inflating it would take seconds.
        let png = BadFiles.blackPNG(width: 16, height: 16, extraBytes: 4 << 30, chunkBytes: 64 << 20)
        let (_, measured) = try Self.classifyBetweenGoodSamples(png, name: "extra-idat.png", expectFailure: false)
        if TestPaths.checksFloors { #expect(measured.cpuSeconds < 1.5, "CPU \(measured.cpuSeconds) s: the extra data was inflated") }
    }

    @Test func interlacedPNGTooBigToHoldHitsTheImageBudget() throws {
        var png = BadFiles.blackPNG(width: 8000, height: 8000)
        png[28] = 1  // IHDR's interlace method: Adam7
        png.replaceSubrange(29..<33, with: BadFiles.bigEndian32(BadFiles.crc32(png[12..<29])))
        try Self.expectError(png, name: "interlaced.png",
                             saying: "PNG over budget: interlaced 8000x8000 image needs 183 MiB at once, above the 64 MiB image budget")
    }

    // MARK: Big images stream (a 120-megapixel photo is decoded row by row, never held whole)

    /// 120 megapixels, 360 MB as RGB: classified in a fraction of that, since rows stream from
    /// the decoder through the resize and only 224-pixel-wide rows are kept. What this measures
    /// is memory, so it runs in `make test-perf`; its code is every other image's.
    @Test(.enabled(if: TestPaths.checksFloors, "a memory floor: make test-perf"), arguments: ["png", "jpg"])
    func hundredTwentyMegapixelImageIsClassifiedInBoundedMemory(format: String) throws {
        let bytes = format == "png" ? BadFiles.blackPNG(width: 10000, height: 12000) : BadFiles.grayJPEG(width: 10000, height: 12000)
        let (_, measured) = try Self.classifyBetweenGoodSamples(bytes, name: "10000x12000.\(format)", expectFailure: false)
        #expect(measured.result.stderr.isEmpty, "\(measured.result.stderr)")
    }
}
