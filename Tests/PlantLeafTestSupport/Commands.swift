import Foundation
import Glibc
import PlantLeafCore
import PlantLeafCamera
import PlantLeafSupport

// Every program a test starts goes through here, and every one is bounded: `runCommand` and
// `runPlantLeafMeasured` kill what is still running at its time limit and throw
// `CommandError.timedOut`, so a hang fails its test with the command line instead of hanging the
// run; a `BackgroundProcess` runs under coreutils' `timeout`, killed at its lifetime.

/// Seconds a command may run when its test names no limit of its own. Generous: the suite also
/// runs under qemu-user (make test-aarch64), where everything takes about ten times as long, and
/// under AddressSanitizer (make test-sanitize). A test that proves "does not hang" names its own.
public let standardTimeLimit: Double = 600

/// Seconds for a run over every sample leaf (samples/plantvillage, 76 images): about 7 s in a
/// debug build here, so more than the standard limit under qemu-user.
public let sampleSetTimeLimit: Double = 1200

/// Why a command a test ran gave no result.
public enum CommandError: Error, CustomStringConvertible {
    /// posix_spawn refused to start it.
    case cannotStart(executable: String, reason: String)
    /// Not finished at its time limit: it was killed, with all it started (its process group).
    case timedOut(command: [String], seconds: Double, stdout: String, stderr: String)

    public var description: String {
        switch self {
        case .cannotStart(let executable, let reason):
            return "cannot start \(executable): \(reason)"
        case .timedOut(let command, let seconds, let stdout, let stderr):
            return "\(shellQuoted(command)) did not finish within \(String(format: "%g", seconds)) s: killed with all it started; "
                + "stdout so far: \(stdout.suffix(1000).debugDescription), stderr so far: \(stderr.suffix(1000).debugDescription)"
        }
    }
}

/// The outcome of running a command.
public struct CommandResult {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    public var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    public var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

/// Runs a program to completion and captures its output, read as it comes so that a chatty
/// program cannot fill a pipe and stall. Its exit status is a shell's: 128 + the signal when a
/// signal ended it. Still running after `timeLimit` seconds, it is killed together with all it
/// started, and `CommandError.timedOut` is thrown.
public func runCommand(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                       currentDirectory: String? = nil, timeLimit: Double = standardTimeLimit) throws -> CommandResult {
    let output = try OutputPipe(), errors = try OutputPipe()
    let pid = try spawnInOwnProcessGroup(executable, arguments, environment: environment, currentDirectory: currentDirectory) { actions in
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output.writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, errors.writeEnd, 2)
    }
    // Only the child may hold the write ends now, so end of file means it (and what it started) is done.
    output.closeWriteEnd()
    errors.closeWriteEnd()

    var deadline = Date().addingTimeInterval(timeLimit)
    var status: Int32?
    var killed = false
    while status == nil || output.isOpen || errors.isOpen {
        if status == nil { status = exitStatus(ofExited: pid) }
        if status != nil && !output.isOpen && !errors.isOpen { break }
        if Date() >= deadline {
            // Once killed, the group gets a few seconds to go; past them, something outside it
            // holds the pipes and the output is given up.
            if killed { break }
            kill(-pid, SIGKILL)
            killed = true
            deadline = Date().addingTimeInterval(10)
            continue
        }
        if output.isOpen || errors.isOpen {
            readAvailable(from: [output, errors], waitingAtMost: min(0.1, deadline.timeIntervalSinceNow))
        } else {
            usleep(2_000)  // the pipes closed as it exits: reaped in a moment
        }
    }
    let stdout = String(decoding: output.bytes, as: UTF8.self), stderr = String(decoding: errors.bytes, as: UTF8.self)
    if killed {
        if status == nil { _ = exitStatus(ofExited: pid) }
        throw CommandError.timedOut(command: [executable] + arguments, seconds: timeLimit, stdout: stdout, stderr: stderr)
    }
    return CommandResult(status: status ?? 0, stdout: stdout, stderr: stderr)
}

/// Runs the built plantleaf binary.
public func runPlantLeaf(_ arguments: [String], environment: [String: String]? = nil, currentDirectory: String? = nil,
                         timeLimit: Double = standardTimeLimit) throws -> CommandResult {
    try runCommand(TestPaths.binary, arguments, environment: environment, currentDirectory: currentDirectory, timeLimit: timeLimit)
}

/// Runs the built plantleaf binary through `/bin/bash -c script`, where "$@" holds `arguments`
/// after the binary: `'"$0" "$@" >/dev/full'` for redirections a spawned program cannot express.
public func runPlantLeafInShell(_ script: String, _ arguments: [String], timeLimit: Double = standardTimeLimit) throws -> CommandResult {
    try runCommand("/bin/bash", ["-c", script, TestPaths.binary] + arguments, timeLimit: timeLimit)
}

/// Runs plantleaf so that a mode-000 file really cannot be read: as root, without the
/// capabilities that let root read any file.
public func runPlantLeafUnprivileged(_ arguments: [String]) throws -> CommandResult {
    guard geteuid() == 0 else { return try runPlantLeaf(arguments) }
    return try runCommand("/usr/bin/setpriv", ["--bounding-set=-dac_override,-dac_read_search", TestPaths.binary] + arguments)
}

/// A finished program's output with what it cost.
public struct MeasuredResult {
    public var result: CommandResult
    /// Peak resident set size (VmHWM) of the program itself, KiB.
    public var peakResidentKiB: Int
    /// User plus system CPU time (wait4's rusage), seconds.
    public var cpuSeconds: Double
}

/// Runs plantleaf and reaps it with wait4, so its CPU time is its own, and samples its VmHWM
/// every millisecond while it runs. (ru_maxrss cannot be used: a spawned child shares this big
/// test process's memory until exec, and Linux carries that peak into the child's ru_maxrss;
/// VmHWM belongs to the program's own address space, and only grows, so the last sample is the
/// peak up to a millisecond before the end.) Output goes to files. Killed at `timeLimit` as
/// `runCommand` does.
public func runPlantLeafMeasured(_ arguments: [String], timeLimit: Double = standardTimeLimit) throws -> MeasuredResult {
    let folder = TestPaths.temporaryDirectory("measured")
    defer { TestPaths.removeTemporaryDirectory(folder) }
    let outPath = folder + "/stdout", errPath = folder + "/stderr"
    let pid = try spawnInOwnProcessGroup(TestPaths.binary, arguments) { actions in
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    }
    let sampler = PeakMemorySampler(pid: pid)
    let thread = Thread { sampler.run() }
    thread.start()
    let deadline = Date().addingTimeInterval(timeLimit)
    var usage = rusage()
    var status = exitStatus(ofExited: pid, usage: &usage)
    while status == nil && Date() < deadline {
        usleep(2_000)
        status = exitStatus(ofExited: pid, usage: &usage)
    }
    if status == nil {
        kill(-pid, SIGKILL)
        while exitStatus(ofExited: pid, usage: &usage) == nil { usleep(2_000) }
    }
    sampler.stop()
    let stdout = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
    let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    guard let status else {
        throw CommandError.timedOut(command: [TestPaths.binary] + arguments, seconds: timeLimit, stdout: stdout, stderr: stderr)
    }
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return MeasuredResult(result: CommandResult(status: status, stdout: stdout, stderr: stderr), peakResidentKiB: sampler.peakKiB,
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

/// A program running in the background under `timeout --signal=KILL lifetime`, its stdout and
/// stderr going to `output`. `stop` sends SIGTERM (which `timeout` passes on) and waits up to 5 s
/// for it to end, then SIGKILLs the process group: the wrapper and the program both, since a
/// program whose wrapper alone was killed has no timer left (under qemu-user, mosquitto_sub
/// readers outlived CI runs that way, reconnecting to their long-gone brokers).
public final class BackgroundProcess {
    /// The process started: `timeout`, which runs the command as its child.
    public let pid: pid_t
    private var running = true

    public init(_ executable: String, _ arguments: [String], lifetime: Int, output: String) throws {
        pid = try spawnInOwnProcessGroup("/usr/bin/timeout", ["--signal=KILL", String(lifetime), executable] + arguments) { actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
    }

    deinit { stop() }

    public var isRunning: Bool {
        if running && exitStatus(ofExited: pid) != nil { running = false }
        return running
    }

    public func stop() {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        if !exited(within: 5) {
            kill(-pid, SIGKILL)
            precondition(exited(within: 5), "process \(pid) survived SIGKILL")
        }
    }

    private func exited(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning {
            guard Date() < deadline else { return false }
            usleep(10_000)
        }
        return true
    }
}

/// Starts `executable` with posix_spawn in a process group of its own, so that a time limit can
/// end all it started (a shell's pipeline, script(1) and its command), with `redirect` setting up
/// its file descriptors. (Not Foundation's Process: it cannot start a child in a group of its
/// own, and it did not always see a child end when several tests ran them at once.) It starts with no signal blocked and default handlers: the test's
/// threads (Dispatch's) block signals, and a mask inherited through exec would make a program
/// ignore SIGTERM or SIGHUP. A `currentDirectory` is entered through env(1)'s --chdir: glibc's
/// posix_spawn_file_actions_addchdir_np is a GNU extension Swift's Glibc module leaves out.
private func spawnInOwnProcessGroup(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                                    currentDirectory: String? = nil,
                                    redirect: (inout posix_spawn_file_actions_t) -> Void) throws -> pid_t {
    let command = currentDirectory.map { ["/usr/bin/env", "--chdir=" + $0, executable] } ?? [executable]
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    redirect(&actions)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t(), allSignals = sigset_t()
    sigemptyset(&noSignals)
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
    let argv = (command + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let variables = environment.map { ProcessInfo.processInfo.environment.merging($0) { $1 }.map { strdup("\($0)=\($1)") } + [nil] }
    defer { variables?.forEach { free($0) } }
    var pid: pid_t = 0
    // A binary a test has just copied can be "busy" for a moment: a child that another test
    // started meanwhile was forked with the copy's write descriptor open, and holds it until it
    // execs. Each retry gives that child time to get there.
    for _ in 0..<50 {
        let status = variables.map { posix_spawn(&pid, command[0], &actions, &attributes, argv, $0) }
            ?? posix_spawn(&pid, command[0], &actions, &attributes, argv, environ)
        if status == 0 { return pid }
        guard status == ETXTBSY else { throw CommandError.cannotStart(executable: executable, reason: SystemError(status).reason) }
        usleep(20_000)
    }
    throw CommandError.cannotStart(executable: executable, reason: SystemError(ETXTBSY).reason)
}

/// Reaps `pid` if it has ended, without waiting: its exit status as a shell gives it (128 + the
/// signal when a signal ended it), or nil while it runs. `usage` receives what it used.
private func exitStatus(ofExited pid: pid_t, usage: UnsafeMutablePointer<rusage>? = nil) -> Int32? {
    var status: Int32 = 0
    guard let reaped = try? SystemCall.retryingInterrupts({ wait4(pid, &status, WNOHANG, usage) }), reaped == pid else { return nil }
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
}

/// A pipe that a child writes and this process reads, with what was read so far; closed when
/// it goes. Both ends are close-on-exec here, so no other program the tests start at the same
/// time inherits them (the child gets its write end through a dup2 file action, which clears the
/// flag).
private final class OutputPipe {
    private(set) var readEnd: Int32
    private(set) var writeEnd: Int32
    private(set) var bytes: [UInt8] = []

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw CommandError.cannotStart(executable: "pipe", reason: SystemError(errno).reason) }
        (readEnd, writeEnd) = (ends[0], ends[1])
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    }

    deinit {
        closeWriteEnd()
        closeReadEnd()
    }

    var isOpen: Bool { readEnd >= 0 }

    func closeWriteEnd() {
        if writeEnd >= 0 { close(writeEnd) }
        writeEnd = -1
    }

    func closeReadEnd() {
        if readEnd >= 0 { close(readEnd) }
        readEnd = -1
    }

    /// Reads what is there; at end of file (or a read error) closes the read end.
    func readChunk() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = read(readEnd, &chunk, chunk.count)
        if count > 0 {
            bytes += chunk.prefix(count)
        } else if count == 0 || errno != EINTR {
            closeReadEnd()
        }
    }
}

/// Waits up to `seconds` for any of the open `pipes` to have data or reach its end, and reads it.
private func readAvailable(from pipes: [OutputPipe], waitingAtMost seconds: Double) {
    let open = pipes.filter(\.isOpen)
    var descriptors = open.map { pollfd(fd: $0.readEnd, events: Int16(POLLIN), revents: 0) }
    guard poll(&descriptors, nfds_t(descriptors.count), Int32(max(1, seconds * 1000))) > 0 else { return }
    for (pipe, descriptor) in zip(open, descriptors) where descriptor.revents != 0 { pipe.readChunk() }
}

/// `command` as a shell would take it, each word quoted where it needs to be.
private func shellQuoted(_ command: [String]) -> String {
    command.map { word in
        word.allSatisfy({ $0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0) }) && !word.isEmpty
            ? word : "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }.joined(separator: " ")
}
