import Glibc
import PlantLeafKit

let usage = """
    USAGE: plantleaf <command> [options]

    Leaf-disease classification on the device, with LiteRT.

    COMMANDS:
      classify PATH...   top classes for leaf photos (files or folders)
      camera             live classification from a V4L2 webcam (--list shows the cameras)
      bench              per-stage latency on this machine; bench compare A.json B.json ...

    Run `plantleaf <command> --help` for a command's options. plantleaf --version prints the version.
    """

Allocator.keepFreedMemory()

let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
switch arguments.first {
case "classify":
    status = ClassifyCommand.run(Array(arguments.dropFirst()))
case "camera":
    status = CameraCommand.run(Array(arguments.dropFirst()))
case "bench":
    status = BenchCommand.run(Array(arguments.dropFirst()))
case "--version":
    Console.out("plantleaf \(ProjectPaths.version)")
    status = ExitCode.success
case "-h", "--help", "help":
    Console.out(usage)
    status = ExitCode.success
case nil:
    Console.error(usage)
    status = ExitCode.setupFailure
case let other?:
    Console.error("plantleaf: unknown command '\(other)'\n\n\(usage)")
    status = ExitCode.setupFailure
}
exit(status)
