// plantleaf-fuzz: drives the fuzz targets of PlantLeafTestSupport/FuzzTargets.swift.
//
// The same source builds twice. `swift build` makes a plain program that writes the seed corpora
// and replays inputs; `make fuzz` builds it again with -sanitize=fuzzer,address and -DFUZZING,
// and then `run TARGET` hands the rest of the command line to libFuzzer.
import CFuzzer
import Foundation
import PlantLeafTestSupport

let usage = """
    USAGE: plantleaf-fuzz list
           plantleaf-fuzz seeds DIR                  write each target's seed corpus to DIR/<target>/
           plantleaf-fuzz replay TARGET FILE...      run saved inputs through a target (no fuzzer needed)
           plantleaf-fuzz run TARGET [LIBFUZZER-OPTIONS] [CORPUS-DIR...]   fuzz (fuzz build only: make fuzz)
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("plantleaf-fuzz: \(message)\n".utf8))
    exit(2)
}

func say(_ message: String) {
    FileHandle.standardOutput.write(Data((message + "\n").utf8))
}

func target(named name: String) -> FuzzTarget {
    guard let target = FuzzTargets.named(name) else {
        fail("no target '\(name)'; targets: \(FuzzTargets.all.map(\.name).joined(separator: ", "))")
    }
    return target
}

/// The target libFuzzer calls; a C function pointer cannot capture, so it is kept here.
nonisolated(unsafe) var fuzzedTarget: FuzzTarget?

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "list":
    for target in FuzzTargets.all { say("\(target.name)\t\(target.summary)") }
case "seeds" where arguments.count == 2:
    for target in FuzzTargets.all {
        let folder = arguments[1] + "/" + target.name
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            fail("cannot create \(folder): \(error.localizedDescription)")
        }
        let seeds = target.seeds()
        for seed in seeds { TestImages.write(seed.bytes, to: folder + "/" + seed.name) }
        say("\(target.name): \(seeds.count) seeds in \(folder)")
    }
case "replay" where arguments.count >= 3:
    let target = target(named: arguments[1])
    for path in arguments.dropFirst(2) {
        guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
        target.run(Array(data))
    }
    say("\(target.name): \(arguments.count - 2) inputs replayed, none crashed")
case "run" where arguments.count >= 2:
    #if FUZZING
    fuzzedTarget = target(named: arguments[1])
    // libFuzzer sees the program name and the options after the target name.
    var fuzzerArguments: [UnsafeMutablePointer<CChar>?] = [CommandLine.unsafeArgv[0]]
        + (3..<Int(CommandLine.argc)).map { CommandLine.unsafeArgv[$0] } + [nil]
    var count = Int32(fuzzerArguments.count - 1)
    let status = fuzzerArguments.withUnsafeMutableBufferPointer { buffer in
        var pointer = buffer.baseAddress
        return LLVMFuzzerRunDriver(&count, &pointer) { data, size in
            fuzzedTarget!.run(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
            return 0
        }
    }
    exit(status)
    #else
    fail("this build has no libFuzzer: run `make fuzz`, which builds plantleaf-fuzz with -sanitize=fuzzer")
    #endif
default:
    fail("unknown command\n\(usage)")
}
