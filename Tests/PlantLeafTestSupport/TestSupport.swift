import CJPEG
import CPNGEncoder
import Foundation
import PlantLeafCore
import PlantLeafCamera

/// Paths the tests use: the package root, the built binary, and the shared data beside the repo.
public enum TestPaths {
    /// The package root, found from this file's location (Tests/PlantLeafTestSupport/).
    public static let root: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }()

    /// The plantleaf binary `swift build` made: PLANTLEAF_BIN if set, else .build/debug/plantleaf.
    public static var binary: String {
        _ = journalHome
        return ProcessInfo.processInfo.environment["PLANTLEAF_BIN"] ?? root + "/.build/debug/plantleaf"
    }

    /// Where the journal of every plantleaf a test runs without --journal goes: a folder of this
    /// test run's, set as XDG_STATE_HOME (which the children inherit) before the first one starts,
    /// so that the tests never write the user's journal, nor wait on each other's.
    private static let journalHome: String = {
        let path = temporaryPrefix + "state-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        setenv("XDG_STATE_HOME", path, 1)
        return path
    }()

    /// Whether that binary was built with AddressSanitizer (`make test-sanitize` says so in
    /// PLANTLEAF_SANITIZER), whose own allocator replaces glibc's malloc and its tuning.
    public static var binaryHasSanitizer: Bool {
        ProcessInfo.processInfo.environment["PLANTLEAF_SANITIZER"] != nil
    }

    /// Whether the floors of time, CPU and memory are checked (a server idle again within 5 s, a
    /// decode under 120 MB): in `make test-perf` (PLANTLEAF_TEST_FLOORS=1), run on its own. On a
    /// machine shared with builds and other test processes those numbers measure the load, so
    /// `make test` runs the same tests for their behaviour only.
    public static var checksFloors: Bool {
        ProcessInfo.processInfo.environment["PLANTLEAF_TEST_FLOORS"] == "1"
    }

    public static let models = root + "/Models"
    public static let samples = root + "/samples"
    public static let plantVillage = samples + "/plantvillage"
    public static let defaultModel = models + "/plantvillage_int8.tflite"
    public static let floatModel = models + "/plantvillage_float.tflite"
    /// The uint8 MobileNetV2 the generalist check ran before: its input resizes (a global pool to patch).
    public static let imagenetModel = models + "/mobilenet_v2_1.0_224_quant.tflite"
    /// The generalist check's model, what classify runs by default.
    public static let generalistModel = models + "/mobilenet_v1_0.25_128_quant.tflite"
    public static let labels = root + "/labels.txt"
    /// Where `make setup` puts the runtime in this checkout; the tests pass it as any other user
    /// of the library would.
    public static let runtimeLibrary = root + "/.runtime/lib/libLiteRt.so"
    public static let runtime = Interpreter.Options(runtimeLibraryPath: runtimeLibrary)

    /// The default model and labels (or those given) with this checkout's runtime.
    public static func classifierOptions(model: String = defaultModel, labels: String = TestPaths.labels,
                                         threads: Int = 1) -> Classifier.Options {
        Classifier.Options(modelPath: model, labelsPath: labels, runtime: Interpreter.Options(runtimeLibraryPath: runtimeLibrary, threads: threads))
    }
    /// The sample leaves most tests classify, one of each of two classes.
    public static let appleScabLeaf = plantVillage + "/Apple___Apple_scab/00075aa8-d81a-4184-8541-b692b78d398a___FREC_Scab 3335.JPG"
    public static let healthyTomatoLeaf = plantVillage + "/Tomato___healthy/000146ff-92a4-4db6-90ad-8fce2ae4fddd___GH_HL Leaf 259.1.JPG"

    /// Where the temporary folders of the tests go: under the system temp dir, named plantleaf-*.
    private static let temporaryPrefix = NSTemporaryDirectory() + "plantleaf-"

    /// A fresh empty folder under the system temp dir. Remove it with `removeTemporaryDirectory`
    /// in a `defer` right after making it, so it goes however the test ends.
    public static func temporaryDirectory(_ name: String = #function) -> String {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let path = temporaryPrefix + "\(safe)-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Removes a folder `temporaryDirectory` made, with whatever the test left in it: chmod(1)
    /// first, for folders it locked (mode 000), and rm(1), which also goes deeper than PATH_MAX.
    public static func removeTemporaryDirectory(_ path: String) {
        precondition(path.hasPrefix(temporaryPrefix), "\(path) is not a folder temporaryDirectory made")
        _ = try? runCommand("/bin/chmod", ["-R", "u+rwx", path])
        _ = try? runCommand("/bin/rm", ["-rf", path])
    }

    /// Every sample leaf image, sorted; the class is the folder name.
    public static func plantVillageImages() -> [String] {
        // samples/plantvillage is a symlink (scripts/setup.sh), which the enumerator would not enter.
        let enumerator = FileManager.default.enumerator(atPath: URL(fileURLWithPath: plantVillage).resolvingSymlinksInPath().path)!
        return (enumerator.allObjects as! [String]).filter { $0.uppercased().hasSuffix(".JPG") }.sorted()
            .map { plantVillage + "/" + $0 }
    }
}

/// Parses one JSON line into a dictionary.
public func jsonObject(_ line: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
}

/// Makes image files in memory with the project's libpng/libjpeg shims.
public enum TestImages {
    /// A width x height picture: a red band on the left, a blue band on the right, both as wide as
    /// the part a centre crop cuts off, and green between (the camera frame suites' picture).
    public static func bands(width: Int, height: Int) -> RGBImage {
        let side = (width - height) / 2
        var pixels: [UInt8] = []
        for _ in 0..<height {
            for x in 0..<width {
                pixels += x < side ? [220, 30, 30] : x >= width - side ? [30, 30, 220] : [30, 200, 40]
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// A JPEG of `pixels` (1, 3 or 4 components a pixel); `exif` becomes an APP1 marker.
    public static func jpeg(_ pixels: [UInt8], width: Int, height: Int, components: Int = 3, quality: Int = 95,
                            progressive: Bool = false, exif: [UInt8]? = nil) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = pl_jpeg_encode(pixels, UInt32(width), UInt32(height), Int32(components), Int32(quality),
                                    progressive ? 1 : 0, exif, exif?.count ?? 0, &output, &size, &message, message.count)
        precondition(status == Int32(PL_JPEG_OK), "JPEG encoding failed: \(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        defer { free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// A PNG from rows laid out as PNG stores them (see pl_png_encode).
    public static func png(_ rows: [UInt8], width: Int, height: Int, colorType: Int, bitDepth: Int,
                           interlaced: Bool = false, palette: [UInt8] = [], transparency: [UInt8] = []) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = pl_png_encode(rows, UInt32(width), UInt32(height), Int32(colorType), Int32(bitDepth), interlaced ? 1 : 0,
                                   palette, Int32(palette.count / 3), transparency, Int32(transparency.count), &output, &size)
        precondition(status == Int32(PL_PNG_ENCODED), "PNG encoding failed: libpng's reason is on stderr")
        defer { free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// A JPEG APP1 payload ("Exif\0\0" + TIFF) whose one IFD entry is the orientation tag.
    public static func exif(orientation: Int, bigEndian: Bool = false) -> [UInt8] {
        func bytes(_ value: Int, _ count: Int) -> [UInt8] {
            let littleEndian = (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
            return bigEndian ? littleEndian.reversed() : littleEndian
        }
        // Built piece by piece: one long `+` chain of array literals is more than Swift 6.0's
        // type checker finishes in reasonable time.
        let header: [UInt8] = Array((bigEndian ? "MM" : "II").utf8) + bytes(42, 2) + bytes(8, 4)  // IFD at 8
        let orientationEntry: [UInt8] = bytes(0x0112, 2) + bytes(3, 2) + bytes(1, 4) + bytes(orientation, 2) + [0, 0]  // SHORT, in the value field
        let tiff: [UInt8] = header + bytes(1, 2) + orientationEntry + bytes(0, 4)  // one entry, no next IFD
        return Array("Exif\0\0".utf8) + tiff
    }

    /// A width x height RGB image with a different colour in each quadrant, so any turn or
    /// mirror is visible: top-left red, top-right green, bottom-left blue, bottom-right white.
    public static func quadrants(width: Int, height: Int) -> RGBImage {
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                switch (x < width / 2, y < height / 2) {
                case (true, true): pixels += [255, 0, 0]
                case (false, true): pixels += [0, 255, 0]
                case (true, false): pixels += [0, 0, 255]
                case (false, false): pixels += [255, 255, 255]
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    public static func write(_ bytes: [UInt8], to path: String) {
        precondition(FileManager.default.createFile(atPath: path, contents: Data(bytes)), "cannot write \(path)")
    }
}

/// Waits for `condition` to hold, looking every 50 ms, for at most `timeout` seconds: whether it
/// did. For an event a test can only see by looking (a line in a file a program writes).
public func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        guard Date() < deadline else { return false }
        usleep(50_000)
    }
    return true
}
