import Foundation
import PlantLeafCore
import PlantLeafCamera
import PlantLeafTestSupport
import Testing

/// `make install` (scripts/install.sh) into a scratch prefix: the installed plantleaf finds its
/// own model, labels and libLiteRt.so from any folder, for any user, and never takes a
/// `labels.txt`, model or runtime from the folder it is run in.
@Suite struct InstallTests {
    let script = TestPaths.root + "/scripts/install.sh"

    /// Installs the tested binary into a fresh prefix in `folder`, with the project's verified
    /// libLiteRt.so; returns the prefix.
    func install(in folder: String) throws -> String {
        let prefix = folder + "/prefix"
        let result = try runCommand("/bin/bash", [script, "--prefix", prefix, "--binary", TestPaths.binary])
        #expect(result.status == 0, "install failed: \(result.stderr)")
        return prefix
    }

    /// A folder that holds everything a lookup by working directory would wrongly pick up: a
    /// 38-line labels.txt, a model that is no model and a libLiteRt.so that is no library. A
    /// temporary folder: the test removes it.
    func decoyFolder() -> String {
        let folder = TestPaths.temporaryDirectory()
        let decoyLabels = (1...38).map { "decoy class \($0)" }.joined(separator: "\n") + "\n"
        TestImages.write(Array(decoyLabels.utf8), to: folder + "/labels.txt")
        for path in ["/Models", "/.runtime", "/.runtime/lib"] {
            try! FileManager.default.createDirectory(atPath: folder + path, withIntermediateDirectories: true)
        }
        TestImages.write(Array("not a model".utf8), to: folder + "/Models/plantvillage_int8.tflite")
        TestImages.write(Array("not a library".utf8), to: folder + "/.runtime/lib/libLiteRt.so")
        return folder
    }

    /// Runs the installed plantleaf in `folder`; as root, as the unprivileged user nobody, so
    /// the install is shown to work for users other than the one who installed it.
    func runInstalled(_ prefix: String, _ arguments: [String], in folder: String) throws -> CommandResult {
        let plantleaf = prefix + "/bin/plantleaf"
        if getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            return try runCommand("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", plantleaf] + arguments,
                                  currentDirectory: folder)
        }
        return try runCommand(plantleaf, arguments, currentDirectory: folder)
    }

    @Test func installedBinaryClassifiesFromAnotherFolderWithItsOwnModelAndLabels() throws {
        let scratch = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(scratch) }
        let prefix = try install(in: scratch)
        for file in ["bin/plantleaf", "lib/plantleaf/libLiteRt.so", "share/plantleaf/plantvillage_int8.tflite",
                     "share/plantleaf/labels.txt", "share/plantleaf/MODEL.md"] {
            #expect(FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file) not installed")
        }
        let folder = decoyFolder()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let leaf = folder + "/leaf.jpg"  // a copy, readable by any user wherever the clone is
        TestImages.write(try FileReader.readAll(path: TestPaths.plantVillageImages()[0]), to: leaf)
        let result = try runInstalled(prefix, ["classify", "leaf.jpg"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutLines == ["leaf.jpg", "  Diagnosis: the top class is the answer", "   99.6%  Apple — Apple scab", "    0.4%  Apple — healthy",
                                       "    0.0%  Apple — Black rot"])
        #expect(result.stderr == "")
    }

    /// The model and labels come as a pair: with the installed labels gone, the error names the
    /// installed path, and the 38-line labels.txt in the working folder is not used instead.
    @Test func missingInstalledLabelsAreAnErrorNotReplacedByTheWorkingFolders() throws {
        let scratch = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(scratch) }
        let prefix = try install(in: scratch)
        #expect(unlink(prefix + "/share/plantleaf/labels.txt") == 0)
        let folder = decoyFolder()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let result = try runInstalled(prefix, ["classify", folder + "/labels.txt"], in: folder)
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.hasPrefix("plantleaf classify: cannot read labels \(prefix)/share/plantleaf/labels.txt: "))
    }

    /// An installed bench needs no option and no sample photo: from a folder with none (a decoy
    /// one), it measures the synthetic leaf with the installed model and runtime.
    @Test func installedBenchRunsWithNoOptionsFromAnotherFolder() throws {
        let scratch = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(scratch) }
        let prefix = try install(in: scratch)
        let folder = decoyFolder()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let result = try runInstalled(prefix, ["bench", "--runs", "5"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("image    synthetic (JPEG, "))
        #expect(result.stdout.contains("model    \(prefix)/share/plantleaf/plantvillage_int8.tflite "))
        #expect(result.stdout.contains("runtime  \(prefix)/lib/plantleaf/libLiteRt.so "))
    }

    /// What each unit runs, and the options files installed beside it.
    static let units: [String: (command: String, options: [String])] = [
        "plantleaf-monitor.service": ("camera --format json $PLANTLEAF_CAMERA_OPTIONS", ["plantleaf-monitor.default", "plantleaf-monitor.logrotate"]),
        "plantleaf-serve.service": ("serve $PLANTLEAF_SERVE_OPTIONS", ["plantleaf-serve.default"]),
    ]

    /// Each unit names the installed binary, its documentation is a file the install put there,
    /// and it passes systemd's own check.
    @Test(arguments: InstallTests.units.keys.sorted())
    func systemdUnitIsInstalledAndVerifies(_ name: String) throws {
        let expected = try #require(Self.units[name])
        let scratch = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(scratch) }
        let prefix = try install(in: scratch)
        let unit = prefix + "/lib/systemd/system/" + name
        let text = try String(contentsOfFile: unit, encoding: .utf8)
        #expect(text.contains("ExecStart=\(prefix)/bin/plantleaf \(expected.command)\n"))
        // The journal's default place is a folder systemd keeps for the service.
        #expect(text.contains("\nStateDirectory=") && text.contains("\nEnvironment=XDG_STATE_HOME=%S"))
        #expect(!text.contains("@BINDIR@") && !text.contains("@DOCDIR@"), "a placeholder was left in the unit")
        for file in expected.options {
            #expect(FileManager.default.fileExists(atPath: prefix + "/share/plantleaf/" + file), "\(file) not installed")
        }
        let documentation = try #require(text.split(separator: "\n").first { $0.hasPrefix("Documentation=") }, "no Documentation= line")
        for uri in documentation.dropFirst("Documentation=".count).split(separator: " ") {
            #expect(uri.hasPrefix("file://\(prefix)/"), "\(uri) is not a file the install put there")
            let path = String(uri.dropFirst("file://".count))
            #expect(FileManager.default.fileExists(atPath: path), "Documentation= names \(path), which the install did not put there")
        }
        let verify = try runCommand("/usr/bin/systemd-analyze", ["verify", unit], timeLimit: 60)
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify.stderr)")
    }

    /// serve's unit with the token override its options file describes still verifies: the
    /// credential line is one systemd accepts, not only a comment.
    @Test func serveUnitWithItsTokenCredentialVerifies() throws {
        let scratch = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(scratch) }
        let prefix = try install(in: scratch)
        let installed = try String(contentsOfFile: prefix + "/lib/systemd/system/plantleaf-serve.service", encoding: .utf8)
        let credential = "LoadCredential=token:/etc/plantleaf/serve.token"
        #expect(installed.contains("\n#" + credential + "\n"), "the unit no longer shows the credential line")
        let unit = scratch + "/plantleaf-serve.service"
        try installed.replacingOccurrences(of: "\n#" + credential, with: "\n" + credential).write(toFile: unit, atomically: true, encoding: .utf8)
        let verify = try runCommand("/usr/bin/systemd-analyze", ["verify", unit], timeLimit: 60)
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify.stderr)")
    }

    @Test func uninstallRemovesEverythingInstallPut() throws {
        let scratch = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(scratch) }
        let prefix = try install(in: scratch)
        for unit in Self.units.keys {
            #expect(FileManager.default.fileExists(atPath: prefix + "/lib/systemd/system/" + unit), "\(unit) not installed")
        }
        let result = try runCommand("/bin/bash", [script, "--uninstall", "--prefix", prefix])
        #expect(result.status == 0, "\(result.stderr)")
        let left = FileManager.default.enumerator(atPath: prefix)?.allObjects as? [String] ?? []
        #expect(left.sorted() == ["bin", "lib", "share"])
    }
}
