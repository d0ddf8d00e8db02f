import CJPEG
import CPNGEncoder
import Foundation
import PlantLeafKit

/// Paths the tests use: the package root, the built binary, and the shared data beside the repo.
public enum TestPaths {
    /// The package root, found from this file's location (Tests/PlantLeafTestSupport/).
    public static let root: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }()

    /// The plantleaf binary `swift build` made: PLANTLEAF_BIN if set, else .build/debug/plantleaf.
    public static var binary: String {
        ProcessInfo.processInfo.environment["PLANTLEAF_BIN"] ?? root + "/.build/debug/plantleaf"
    }

    /// Whether that binary was built with AddressSanitizer (`make test-sanitize` says so in
    /// PLANTLEAF_SANITIZER), whose own allocator replaces glibc's malloc and its tuning.
    public static var binaryHasSanitizer: Bool {
        ProcessInfo.processInfo.environment["PLANTLEAF_SANITIZER"] != nil
    }

    public static let models = root + "/Models"
    public static let samples = root + "/samples"
    public static let plantVillage = samples + "/plantvillage"
    public static let defaultModel = models + "/plantvillage_int8.tflite"
    public static let floatModel = models + "/plantvillage_float.tflite"
    public static let imagenetModel = models + "/mobilenet_v2_1.0_224_quant.tflite"
    public static let labels = root + "/labels.txt"

    /// A fresh empty folder under the system temp dir.
    public static func temporaryDirectory(_ name: String = #function) -> String {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let path = NSTemporaryDirectory() + "plantleaf-\(safe)-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Every sample leaf image, sorted; the class is the folder name.
    public static func plantVillageImages() -> [String] {
        // samples/plantvillage is a symlink (scripts/setup.sh), which the enumerator would not enter.
        let enumerator = FileManager.default.enumerator(atPath: URL(fileURLWithPath: plantVillage).resolvingSymlinksInPath().path)!
        return (enumerator.allObjects as! [String]).filter { $0.uppercased().hasSuffix(".JPG") }.sorted()
            .map { plantVillage + "/" + $0 }
    }
}

/// The outcome of running a command.
public struct CommandResult {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    public var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

/// Runs a program to completion and captures its output (read concurrently, so a chatty
/// program cannot fill a pipe and stall).
public func runCommand(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                       currentDirectory: String? = nil) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
    let outPipe = Pipe(), errPipe = Pipe()
    process.standardOutput = outPipe
    process.standardError = errPipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let group = DispatchGroup()
    nonisolated(unsafe) var errData = Data()
    DispatchQueue.global().async(group: group) { errData = errPipe.fileHandleForReading.readDataToEndOfFile() }
    let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return CommandResult(status: process.terminationStatus,
                         stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self))
}

/// Runs the built plantleaf binary.
public func runPlantLeaf(_ arguments: [String], environment: [String: String]? = nil,
                         currentDirectory: String? = nil) throws -> CommandResult {
    try runCommand(TestPaths.binary, arguments, environment: environment, currentDirectory: currentDirectory)
}

/// Exit status of a run that `runWithin` killed for taking too long (128 + SIGKILL).
public let killedForTakingTooLong: Int32 = 137

/// Runs a program under coreutils' `timeout`, killed after `seconds`: a test of "does not hang"
/// then fails with status `killedForTakingTooLong` instead of hanging itself.
public func runWithin(seconds: Int, _ executable: String, _ arguments: [String],
                      environment: [String: String]? = nil) throws -> CommandResult {
    try runCommand("/usr/bin/timeout", ["--signal=KILL", String(seconds), executable] + arguments, environment: environment)
}

/// Runs the built plantleaf binary through `/bin/sh -c script`, where "$@" holds `arguments`
/// after the binary: `'"$0" "$@" >/dev/full'` for redirections a Process cannot express.
public func runPlantLeafInShell(_ script: String, _ arguments: [String], seconds: Int = 60) throws -> CommandResult {
    try runWithin(seconds: seconds, "/bin/bash", ["-c", script, TestPaths.binary] + arguments)
}

/// Parses one JSON line into a dictionary.
public func jsonObject(_ line: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
}

/// Makes image files in memory with the project's libpng/libjpeg shims.
public enum TestImages {
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

/// A finished program's output with what it cost.
public struct MeasuredResult {
    public var result: CommandResult
    /// Peak resident set size (VmHWM) of the program itself, KiB.
    public var peakResidentKiB: Int
    /// User plus system CPU time (wait4's rusage), seconds.
    public var cpuSeconds: Double
}

/// Runs plantleaf with posix_spawn and reaps it with wait4, so its CPU time is its own, and
/// samples its VmHWM every millisecond while it runs. (ru_maxrss cannot be used: a spawned
/// child shares this big test process's memory until exec, and Linux carries that peak into the
/// child's ru_maxrss; VmHWM belongs to the program's own address space, and only grows, so the
/// last sample is the peak up to a millisecond before the end.) Output goes to files.
public func runPlantLeafMeasured(_ arguments: [String]) throws -> MeasuredResult {
    let folder = TestPaths.temporaryDirectory("measured-\(UUID().uuidString)")
    let outPath = folder + "/stdout", errPath = folder + "/stderr"
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv = ([TestPaths.binary] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, TestPaths.binary, &actions, nil, argv, environ) == 0 else { throw CocoaError(.executableLoad) }
    let sampler = PeakMemorySampler(pid: pid)
    let thread = Thread { sampler.run() }
    thread.start()
    var status: Int32 = 0
    var usage = rusage()
    try SystemCall.retryingInterrupts { wait4(pid, &status, 0, &usage) }
    sampler.stop()
    let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    let result = CommandResult(status: exitStatus,
                               stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
                               stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    return MeasuredResult(result: result, peakResidentKiB: sampler.peakKiB,
                          cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime))
}

/// Reads /proc/PID/status until told to stop, keeping the last VmHWM seen once the process runs
/// plantleaf (before exec it still shows the test process).
private final class PeakMemorySampler: @unchecked Sendable {
    private let path: String
    private let lock = NSLock()
    private var running = true
    private var peak = 0
    private let done = DispatchSemaphore(value: 0)

    init(pid: pid_t) { path = "/proc/\(pid)/status" }

    var peakKiB: Int { lock.withLock { peak } }

    func run() {
        defer { done.signal() }
        while lock.withLock({ running }) {
            if let status = try? String(contentsOfFile: path, encoding: .utf8),
               status.split(separator: "\n").first == "Name:\tplantleaf",
               let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
               let kib = Int(line.split(separator: " ").dropFirst().first ?? "") {
                lock.withLock { peak = max(peak, kib) }
            }
            usleep(1000)
        }
    }

    func stop() {
        lock.withLock { running = false }
        done.wait()
    }
}
