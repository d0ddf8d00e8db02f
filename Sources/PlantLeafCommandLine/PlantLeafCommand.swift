import Glibc
import PlantLeafCore
import PlantLeafCamera
import PlantLeafServe
import PlantLeafSupport

/// The `plantleaf` program: process set-up, the subcommand dispatch and the exit status. The
/// executable's main.swift only calls `main()`.
public enum PlantLeafCommand {
    /// Every subcommand, in the order plantleaf --help lists them.
    static let subcommands: [any Subcommand.Type] = [ClassifyCommand.self, CameraCommand.self, BenchCommand.self, ServeCommand.self,
                                                     CalibrateCommand.self, JournalCommand.self, TeachCommand.self]

    static let usage: String = {
        let commands = subcommands.map { command in
            let configuration = command.configuration
            let label = configuration.operands.isEmpty ? configuration.name : configuration.name + " " + configuration.operands
            return "  " + label + String(repeating: " ", count: max(19 - label.count, 2)) + configuration.abstract
        }
        return """
            USAGE: plantleaf <command> [options]

            Leaf-disease classification on the device, with LiteRT.

            COMMANDS:
            \(commands.joined(separator: "\n"))

            Run `plantleaf <command> --help` for a command's options. plantleaf --version prints the version.
            """
    }()

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
            let command = subcommands.contains { $0.name == arguments.first } ? " " + arguments[0] : ""
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
        if let command = subcommands.first(where: { $0.name == arguments.first }) {
            let (rest, restBytes) = (Array(arguments.dropFirst()), Array(bytes.dropFirst()))
            if !command.configuration.readsArgumentBytes, let refusal = NonUTF8Argument.first(in: restBytes) {
                Console.error("\(command.commandLine(rest)): \(refusal) (see plantleaf \(command.name) --help)")
                return ExitCode.setupFailure
            }
            return command.run(rest, bytes: restBytes)
        }
        switch arguments.first {
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
