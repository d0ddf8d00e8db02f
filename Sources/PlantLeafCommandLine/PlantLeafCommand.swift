import Glibc
import PlantLeafCore
import PlantLeafCamera
import PlantLeafServe
import PlantLeafSupport

/// The `plantleaf` program: process set-up, the subcommand dispatch and the exit status. The
/// executable's main.swift only calls `main()`.
public enum PlantLeafCommand {
    static let usage = """
        USAGE: plantleaf <command> [options]

        Leaf-disease classification on the device, with LiteRT.

        COMMANDS:
          classify PATH...   top classes for leaf photos (files or folders)
          camera             live classification from a V4L2 webcam (--list shows the cameras)
          bench              per-stage latency on this machine; bench compare A.json B.json ...
          serve              a page and JSON API to classify photos from a phone's browser
          calibrate DIR      teach the generalist check your own leaf photos (your crop, camera, light)
          journal            the readings and events camera and serve keep: export, import a --log, events
          teach              teach it your crop from a few photos a class: add, list, remove, export, import, check

        Run `plantleaf <command> --help` for a command's options. plantleaf --version prints the version.
        """

    /// Runs the command the process was started with; returns the exit status.
    public static func main() -> Int32 {
        Allocator.keepFreedMemory()
        // A reader that closes the pipe (`plantleaf classify … | head -1`) ends the run quietly: the
        // failed write says EPIPE instead of the signal killing the process with status 141.
        signal(SIGPIPE, SIG_IGN)
        // A file-size limit (ulimit -f) is a write error to report, as a full disk is, and the
        // log takes back a record cut short; the default action would kill the process mid-line.
        signal(SIGXFSZ, SIG_IGN)
        holdClosedStandardDescriptors()
        let arguments = Array(CommandLine.arguments.dropFirst())
        // The same arguments as the bytes the system passed: CommandLine.arguments turns invalid
        // UTF-8 into U+FFFD, and a file name has to stay the name it was.
        let argumentBytes: [[UInt8]] = (1..<Int(CommandLine.argc)).map { index in
            let argument = CommandLine.unsafeArgv[index]!
            return UnsafeRawBufferPointer(start: argument, count: strlen(argument)).map { $0 }
        }
        var status = run(arguments, bytes: argumentBytes)
        switch Console.stdoutFailure {
        case nil, EPIPE?:
            break  // EPIPE: the reader has what it wanted; the command stopped and says how its inputs went
        case let code?:
            let command = ["classify", "camera", "bench", "serve", "calibrate", "journal", "teach"].contains(arguments.first ?? "") ? " " + arguments[0] : ""
            let reason = code == EBADF ? "standard output is closed" : SystemError(code).reason
            Console.error("plantleaf\(command): cannot write the results to standard output: \(reason)")
            status = ExitCode.setupFailure
        }
        return status
    }

    /// A closed standard descriptor would be handed to the next file opened (an image, a report),
    /// and output meant for the terminal would go into it: hold each with /dev/null instead. A
    /// closed stdout is still an error, found before any work is done.
    private static func holdClosedStandardDescriptors() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) < 0 && errno == EBADF {
            let placeholder = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if placeholder >= 0 && placeholder != descriptor {
                dup2(placeholder, descriptor)
                close(placeholder)
            }
            if descriptor == STDOUT_FILENO { Console.stdoutCannotBeWritten(EBADF) }
        }
    }

    /// `arguments` without the program name; `bytes`, the same as the system passed them.
    static func run(_ arguments: [String], bytes: [[UInt8]]) -> Int32 {
        // stdout closed from the start: no work whose output would be lost.
        if Console.stdoutFailed { return ExitCode.setupFailure }
        switch arguments.first {
        case "classify":
            return ClassifyCommand.run(Array(arguments.dropFirst()), bytes: Array(bytes.dropFirst()))
        case "camera":
            if let refusal = NonUTF8Argument.first(in: Array(bytes.dropFirst())) {
                Console.error("plantleaf camera: \(refusal) (see plantleaf camera --help)")
                return ExitCode.setupFailure
            }
            return CameraCommand.run(Array(arguments.dropFirst()))
        case "bench":
            if let refusal = NonUTF8Argument.first(in: Array(bytes.dropFirst())) {
                let command = arguments.dropFirst().first == "compare" ? "plantleaf bench compare" : "plantleaf bench"
                Console.error("\(command): \(refusal) (see plantleaf bench --help)")
                return ExitCode.setupFailure
            }
            return BenchCommand.run(Array(arguments.dropFirst()))
        case "journal":
            if let refusal = NonUTF8Argument.first(in: Array(bytes.dropFirst())) {
                Console.error("plantleaf journal: \(refusal) (see plantleaf journal --help)")
                return ExitCode.setupFailure
            }
            return JournalCommand.run(Array(arguments.dropFirst()))
        case "calibrate":
            if let refusal = NonUTF8Argument.first(in: Array(bytes.dropFirst())) {
                Console.error("plantleaf calibrate: \(refusal) (see plantleaf calibrate --help)")
                return ExitCode.setupFailure
            }
            return CalibrateCommand.run(Array(arguments.dropFirst()))
        case "teach":
            if let refusal = NonUTF8Argument.first(in: Array(bytes.dropFirst())) {
                Console.error("plantleaf teach: \(refusal) (see plantleaf teach --help)")
                return ExitCode.setupFailure
            }
            return TeachCommand.run(Array(arguments.dropFirst()))
        case "serve":
            if let refusal = NonUTF8Argument.first(in: Array(bytes.dropFirst())) {
                Console.error("plantleaf serve: \(refusal) (see plantleaf serve --help)")
                return ExitCode.setupFailure
            }
            return ServeCommand.run(Array(arguments.dropFirst()))
        case "--version":
            Console.out("plantleaf \(ProjectPaths.version)")
            return ExitCode.success
        case "-h", "--help", "help":
            Console.out(usage + "\n\n" + KnownClasses.helpSection())
            return ExitCode.success
        case nil:
            Console.error(usage)
            return ExitCode.setupFailure
        case let other?:
            Console.error("plantleaf: unknown command '\(other)'\n\n\(usage)")
            return ExitCode.setupFailure
        }
    }
}
