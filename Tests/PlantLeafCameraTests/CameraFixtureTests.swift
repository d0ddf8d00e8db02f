import Foundation
import PlantLeafCore
import PlantLeafCamera
import PlantLeafCommandLine
import PlantLeafTestSupport
import Testing

/// `plantleaf camera` against real V4L2 drivers: ../shared/tools/camera-fixture boots a kernel
/// under QEMU where vivid (YUYV) or v4l2loopback (MJPEG) shows a JPEG as a capture device. One
/// VM at a time; each boot runs a script of several camera runs whose output lands in a shared
/// folder. A broken fixture fails these tests (it is part of what make test checks).
@Suite(.serialized) struct CameraFixtureTests {
    static let shared = ProcessInfo.processInfo.environment["PLANTLEAF_SHARED"] ?? TestPaths.root + "/../shared"
    static let fixture = shared + "/tools/camera-fixture/camera-fixture.sh"
    static let appleScab = TestPaths.appleScabLeaf
    static let tomatoHealthy = TestPaths.healthyTomatoLeaf

    /// The output files of one scenario: its folder in the boot's shared folder.
    struct Boot {
        let directory: String

        func text(_ name: String) -> String {
            (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? ""
        }

        func status(_ name: String) -> Int? { Int(text(name + ".rc").trimmingCharacters(in: .whitespacesAndNewlines)) }

        /// The per-frame JSON objects of a run, and its summary object.
        func frames(_ name: String) -> (frames: [[String: Any]], summary: [String: Any]?) {
            let objects = text(name + ".out").split(separator: "\n").compactMap { jsonObject(String($0)) }
            return (objects.filter { $0["frame"] != nil }, objects.last?["summary"] as? [String: Any])
        }
    }

    /// What one scenario shows and runs: the device `backend` (vivid, loopback or
    /// loopback-unpatched) showing `images` (`perImage` frames each) at 256x256, and `script` (sh),
    /// run in its own folder; $PLANTLEAF is the binary under test, $CAMERA_DEVICE the capture
    /// device, $VIVID_KO vivid's module. Each run should write NAME.out, NAME.err and NAME.rc.
    struct Scenario {
        var name: String
        var backend = "vivid"
        var images: [String]
        var perImage = 1
        var script: String
    }

    /// Seconds the boot may take: the VM runs every scenario in turn; the first boot on a machine
    /// also builds the fixture's cache (packages, kernel modules), which takes longer.
    static let bootTimeLimit: Double = 3600

    /// The guest half of the fixture, which sets a device up, starts its feeder and runs a
    /// command: each scenario runs through it again inside the one VM.
    static let guestSetUp = shared + "/tools/camera-fixture/fixture-guest.sh"

    /// Where the boot's scenarios leave their files, kept after the run for a look at a failure.
    static let outputFolder = TestPaths.root + "/.build/test-output/camera-fixture"

    /// The guest's cache folder (XDG_CACHE_HOME), shared read-write with the VM and kept from run
    /// to run. The guest sees the host's own cache through another file system, so it would
    /// otherwise hash the model and the runtime afresh at every boot: a minute under TCG in the
    /// first `plantleaf`, which the whole suite waits for. Through the shared folder the files
    /// keep their identity from one boot to the next, and the stored digests are trusted.
    static let guestCacheFolder = TestPaths.root + "/.build/test-output/camera-fixture-cache"

    /// XNNPACK's caches in the guest's cache folder. The shared folder (9p) cannot map a file
    /// being written, so none is ever built there: each boot starts without, and its first
    /// `plantleaf` finds the folder refused rather than a cache (a cache that failed to build
    /// used to fail that run's first inference).
    static var guestXNNPACKCaches: String { guestCacheFolder + "/plantleaf/xnnpack" }

    /// A black picture (a lens cap, the greenhouse at night), made for the boot.
    static var blackPicture: String { outputFolder + "/black.jpg" }

    /// Every scenario of the suite. Booting the VM is most of a scenario's cost (about a minute
    /// here), so the suite boots it once and each scenario sets its device up afresh inside:
    /// the device module unloaded and loaded again, the fixture's own set-up run for it. Under
    /// TCG each classified frame costs seconds, and this suite is the longest of `make test`:
    /// each run reads the fewest frames its checks need (YUYV: four diagnoses, then two repeats).
    /// PLANTLEAF_CAMERA_SCENARIOS (names, comma-separated) runs only those: `make test-sanitize`
    /// skips the tests of the others.
    static var scenarios: [Scenario] {
        let all = [yuyvScenario, blackScenario, everyScenario, mjpegScenario, previewScenario, alternatingScenario]
        guard let chosen = ProcessInfo.processInfo.environment["PLANTLEAF_CAMERA_SCENARIOS"]?.split(separator: ",") else { return all }
        return all.filter { chosen.contains(Substring($0.name)) }
    }

    /// The one boot, begun by the first test that asks for it; a failed boot fails every test.
    /// It runs on a thread of its own: the tests await it, so its minutes of waiting for the VM
    /// do not hold one of the few threads (one a core) that every suite's tests run on.
    static let boot: Task<String, any Error> = Task {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try bootOnce(scenarios) }) }.start()
        }
    }

    /// The folder of scenario `name` in the one boot.
    func boot(_ name: String) async throws -> Boot {
        let folder = try await Self.boot.value
        let fixtureStatus = Boot(directory: folder).status(name + "/fixture")
        #expect(fixtureStatus == 0, "scenario \(name): the fixture's set-up failed (\(fixtureStatus.map(String.init) ?? "not run"))")
        return Boot(directory: folder + "/" + name)
    }

    static func bootOnce(_ scenarios: [Scenario]) throws -> String {
        let folder = outputFolder
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        TestImages.write(TestImages.jpeg([UInt8](repeating: 0, count: 256 * 256 * 3), width: 256, height: 256), to: blackPicture)
        try FileManager.default.createDirectory(atPath: guestCacheFolder, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: guestXNNPACKCaches)
        var driver = """
            set -u
            export XDG_CACHE_HOME='\(guestCacheFolder)'
            cache=${CAMERA_FIXTURE_CACHE:-$HOME/.cache/camera-fixture}
            export VIVID_KO="$(find "$cache" -name 'vivid.ko*' | head -1)"
            build=$(dirname "$CAMERA_FIXTURE_BIN")
            # The runs that check capture (drops, faults, unplugging, intervals, MJPEG, the
            # preview) take only the checks that need no second inference: the generalist and
            # the mirror each cost a model run a frame under TCG, and the yuyv, black and pattern
            # runs check them on the driver's frames with camera's default checks.
            export CHEAP='--checks picture,vegetation,score'
            # Waits (60 s at most) until module $1 is unloaded: unloading waits for every program
            # to close its device.
            unload() { i=0; while [ -d /sys/module/$1 ] && ! rmmod $1 2>/dev/null && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; }
            # scenario NAME BACKEND PER_IMAGE IMAGE...: the device as the fixture makes it, then NAME.sh.
            scenario() {
                name=$1 backend=$2 per_image=$3; shift 3
                pkill -f v4l2-feed; unload vivid; unload v4l2loopback
                format=YUYV; ko=
                case $backend in
                    vivid) insmod "$VIVID_KO" n_devs=1 node_types=0x101 num_inputs=1 input_types=0x3 num_outputs=1 output_types=0x1
                           i=0; until [ -e /dev/video1 ] || [ $i -ge 100 ]; do sleep 0.1; i=$((i+1)); done;;
                    loopback) format=MJPG ko=$build/loopback-patched/v4l2loopback.ko;;
                    loopback-unpatched) format=MJPG ko=$build/loopback-unpatched/v4l2loopback.ko;;
                esac
                mkdir -p "$name"
                (cd "$name" && CAMFIX_FORMAT=$format CAMFIX_BACKEND=$backend CAMFIX_W=256 CAMFIX_H=256 CAMFIX_MODE=fit CAMFIX_FPS=30 \
                    CAMFIX_PER_IMAGE=$per_image CAMFIX_VERBOSE=0 CAMFIX_BIN=$CAMERA_FIXTURE_BIN CAMFIX_LOOPBACK_KO=$ko \
                    CAMFIX_LABEL="Fixture Camera" CAMFIX_IMAGES="$(printf '%s\n' "$@")" bash "$GUEST_SET_UP" sh ../"$name".sh)
                echo $? > "$name"/fixture.rc
            }

            """
        for scenario in scenarios {
            TestImages.write(Array(scenario.script.utf8), to: folder + "/" + scenario.name + ".sh")
            let images = scenario.images.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
            driver += "scenario \(scenario.name) \(scenario.backend) \(scenario.perImage) \(images)\n"
        }
        TestImages.write(Array(driver.utf8), to: folder + "/run.sh")
        // The whole VM run's own limit (VIVID_TIMEOUT) is raised from 600 s: it holds every scenario.
        let result = try runCommand(fixture, ["-s", "256x256", "-i", appleScab, "--", "sh", "run.sh"],
                                    environment: ["PLANTLEAF": TestPaths.binary, "GUEST_SET_UP": guestSetUp, "VIVID_TIMEOUT": "3000",
                                                  "VIVID_RW_DIRS": guestCacheFolder],
                                    currentDirectory: folder, timeLimit: bootTimeLimit)
        guard result.status == 0 else {
            throw FixtureFailure(description: "camera fixture failed (\(result.status)): \(result.stderr.suffix(2000))")
        }
        return folder
    }

    static let yuyvScenario = Scenario(name: "yuyv", images: [appleScab], script: """
            camera() { "$PLANTLEAF" camera --size 256x256 "$@"; }
            run() { name=$1; shift; camera "$@" > $name.out 2> $name.err; echo $? > $name.rc; }
            # Waits (60 s at most) until a background run has classified its first frame: its
            # capture loop is then taking buffers from the driver.
            started() { i=0; while ! grep -q '"frame"' $1.out 2>/dev/null && [ $i -lt 300 ]; do sleep 0.2; i=$((i+1)); done; }
            run missing --device /dev/video9 --frames 1
            run output-node --device /dev/video1 --frames 1
            run yuyv --frames 6 --format json
            v4l2-ctl -d $D -c percentage_of_dropped_buffers=50
            run drops --frames 3 --format json $CHEAP
            v4l2-ctl -d $D -c percentage_of_dropped_buffers=0
            # Run directly (not through the shell function), so $! is plantleaf's own pid.
            "$PLANTLEAF" camera --size 256x256 --duration 60 --format json $CHEAP > flagged.out 2> flagged.err & pid=$!
            started flagged
            # vivid hands the error flag to whichever of its capture or output queues completes a
            # buffer first, so inject it often enough for the capture side to get it.
            for i in 1 2 3 4 5 6 7 8 9 10; do v4l2-ctl -d $D -c inject_v4l2_buf_flag_error=1; sleep 0.2; done
            run busy --frames 1 $CHEAP
            kill -TERM $pid; wait $pid; echo $? > flagged.rc
            "$PLANTLEAF" camera --size 256x256 --duration 60 --format json $CHEAP > unplugged.out 2> unplugged.err & pid=$!
            started unplugged; v4l2-ctl -d $D -c disconnect=1
            wait $pid; echo $? > unplugged.rc
            """.replacingOccurrences(of: "$D", with: "$CAMERA_DEVICE"))

    static let blackScenario = Scenario(name: "black", images: [blackPicture], script: """
            "$PLANTLEAF" camera --size 256x256 --frames 3 --format json > black.out 2> black.err; echo $? > black.rc
            # vivid loaded afresh, with nothing fed: its own test pattern.
            pkill -f v4l2-feed; i=0; until rmmod vivid 2>/dev/null || [ $i -ge 100 ]; do sleep 0.1; i=$((i+1)); done
            insmod "$VIVID_KO" n_devs=1 node_types=0x1 num_inputs=1 input_types=0x0
            i=0; until [ -e /dev/video0 ] || [ $i -ge 100 ]; do sleep 0.1; i=$((i+1)); done
            "$PLANTLEAF" camera --frames 3 --format json > pattern.out 2> pattern.err; echo $? > pattern.rc
            """)

    static let everyScenario = Scenario(name: "every", images: [appleScab], script: """
            results() { n=$(grep -c '"frame"' every.out 2>/dev/null); echo "${n:-0}"; }
            # Waits (300 s at most: the retries back off to 60 s, and on a loaded machine the
            # module can be back only after the 60 s wait has begun) for at least $1 results.
            await() { i=0; while [ "$(results)" -lt $1 ] && [ $i -lt 1500 ]; do sleep 0.2; i=$((i+1)); done; }
            "$PLANTLEAF" camera --size 256x256 --every 1s --format json --log every.jsonl $CHEAP > every.out 2> every.err & pid=$!
            await 3; before=$(results)
            pkill -f v4l2-feed; v4l2-ctl -d $CAMERA_DEVICE -c disconnect=1
            # Unloading waits for plantleaf to close the node (it does between intervals; a
            # capture under a sanitizer on a loaded machine can take seconds).
            i=0; until rmmod vivid 2>/dev/null || [ $i -ge 600 ]; do sleep 0.1; i=$((i+1)); done
            # Plugged back in only once the run has failed twice (its retries back off, 1 s then
            # 2 s): on a loaded machine a reading can take seconds, so no fixed wait would do.
            i=0; until grep -q "trying again in 2 s" every.err || [ $i -ge 1500 ]; do sleep 0.2; i=$((i+1)); done
            # Counted once the module is gone: on a loaded machine readings can still come in
            # between the count above and the unplug taking effect.
            unplugged=$(results)
            insmod "$VIVID_KO" n_devs=1 node_types=0x1 num_inputs=1 input_types=0x0
            await $((unplugged + 2))
            kill -TERM $pid; wait $pid; echo $? > every.rc
            echo $before > before.count
            """)

    static let mjpegScenario = Scenario(name: "mjpeg", backend: "loopback", images: [tomatoHealthy], script: """
            "$PLANTLEAF" camera --size 256x256 --frames 3 --format json $CHEAP > mjpeg.out 2> mjpeg.err; echo $? > mjpeg.rc
            """)

    static let previewScenario = Scenario(name: "preview", images: [tomatoHealthy], script: """
            # The guest runs the host's tmux, but its /dev (devtmpfs) has no pts folder, so the
            # fixture's devpts mount fails and no pane could get a pseudo-terminal: mount one (the
            # VM is thrown away afterwards).
            [ -e /dev/pts/ptmx ] || { mkdir -p /dev/pts && mount -t devpts -o newinstance,ptmxmode=0666 devpts /dev/pts; }
            export TERM=xterm-256color COLORTERM=truecolor
            t() { timeout 10 tmux -L preview "$@"; }
            # run NAME VAR=VALUE...: plantleaf in a new 120x50 session with those variables (tmux
            # sets the pane's own TERM, hence env; the guest has the host's environment, and swift
            # test may have set NO_COLOR there); the pane stays open after it ends. Then waits
            # (120 s at most) for NAME.rc and saves the pane as NAME.pane.
            run() {
                name=$1; shift
                t new-session -d -s $name -x 120 -y 50 \
                    "env -u NO_COLOR $* \"$PLANTLEAF\" camera --size 256x256 --preview --frames 2 $CHEAP 2> $name.err; echo \\$? > $name.rc; sleep 600"
                i=0; while [ ! -e $name.rc ] && [ $i -lt 600 ]; do sleep 0.2; i=$((i+1)); done
                t capture-pane -e -p -t $name > $name.pane
            }
            run truecolor TERM=xterm-256color COLORTERM=truecolor
            run grey TERM=xterm-256color COLORTERM=truecolor NO_COLOR=1
            t kill-server
            """)

    static let alternatingScenario = Scenario(name: "alternating", backend: "loopback-unpatched", images: [appleScab, tomatoHealthy], perImage: 90, script: """
            "$PLANTLEAF" camera --size 256x256 --frames 8 --format json --save-frames saved $CHEAP > mjpeg.out 2> mjpeg.err; echo $? > mjpeg.rc
            """)

    struct FixtureFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// What `plantleaf classify` says of the file: the reference for the camera's answers.
    func classify(_ path: String) throws -> (label: String, score: Double) {
        let result = try runPlantLeaf(["classify", "--format", "json", path])
        let top = try #require((jsonObject(result.stdout)?["top"] as? [[String: Any]])?.first)
        return (top["label"] as! String, top["score"] as! Double)
    }

    func topLabel(_ frame: [String: Any]) -> (String, Double)? {
        guard let top = (frame["top"] as? [[String: Any]])?.first else { return nil }
        return (top["label"] as? String ?? "", top["score"] as? Double ?? -1)
    }

    func expectEveryFrame(_ frames: [[String: Any]], count: Int, matches reference: (label: String, score: Double),
                          sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(frames.count == count, sourceLocation: sourceLocation)
        for frame in frames {
            let (label, score) = topLabel(frame) ?? ("none", -1)
            #expect(label == reference.label && abs(score - reference.score) <= 0.05,
                    "frame \(frame["frame"] ?? "?"): \(label) \(score), classify gives \(reference.label) \(reference.score)",
                    sourceLocation: sourceLocation)
        }
    }

    /// vivid, YUYV 256x256 (pixel-exact): 6 frames agree with classify; then the faults. (vivid
    /// loops its output to other capture formats without colour, so NV12 and RGB24 are covered
    /// by the unit tests only.)
    @Test func yuyvThroughVivid() async throws {
        let reference = try classify(Self.appleScab)
        let boot = try await boot("yuyv")

        #expect(boot.status("missing") == 2)
        #expect(boot.text("missing.err").contains("/dev/video9: no such device; devices present: /dev/video0, /dev/video1"))
        #expect(boot.status("output-node") == 2)
        #expect(boot.text("output-node.err").contains("/dev/video1: not a video capture device"))

        // The boot's first run to load the model: its cache folder cannot hold a cache, and it
        // classifies without one.
        #expect(boot.status("yuyv") == 0, "\(boot.text("yuyv.err"))")
        #expect(boot.text("yuyv.err").contains("YUYV 256x256 at 59.94 fps"))
        #expect(!boot.text("yuyv.err").contains("XNNPack"), "\(boot.text("yuyv.err"))")
        let caches = (try? FileManager.default.contentsOfDirectory(atPath: Self.guestXNNPACKCaches)) ?? []
        #expect(!caches.contains { $0.hasSuffix(".cache") }, "\(caches)")
        let yuyv = boot.frames("yuyv")
        expectEveryFrame(yuyv.frames, count: 6, matches: reference)
        // vivid repeats the fed picture pixel for pixel: the first readings are diagnoses, and
        // from the fifth running with the same picture on, a stuck camera's no-picture.
        let verdicts = yuyv.frames.map { $0["verdict"] as? String ?? "none" }
        #expect(verdicts.prefix(4).allSatisfy { $0 == "diagnosis" } && verdicts.dropFirst(4).allSatisfy { $0 == "no-picture" }, "\(verdicts)")
        #expect(yuyv.frames.dropFirst(4).allSatisfy { $0["reason"] as? String == "repeated-frame" })
        // The generalist check runs on the camera's frames too, its reading in every record.
        #expect(yuyv.frames.allSatisfy { ($0["leaf_likeness"] as? Double).map { (0...1).contains($0) } == true }, "\(yuyv.frames.prefix(1))")
        #expect(yuyv.summary?["classified"] as? Int == 6)
        #expect(yuyv.summary?["corrupt"] as? Int == 0)
        let sequences = yuyv.frames.compactMap { $0["frame"] as? Int }
        #expect(sequences == sequences.sorted() && Set(sequences).count == sequences.count, "newest frame first, never an old one")

        // Half the buffers dropped by the driver: at least a third of the sequence numbers missing.
        let drops = try #require(boot.frames("drops").summary)
        let (dropped, captured) = (drops["dropped"] as? Int ?? 0, drops["captured"] as? Int ?? 0)
        #expect(dropped * 3 >= dropped + captured && captured > 0, "dropped \(dropped) of \(dropped + captured)")

        // Buffers the driver flags as bad are skipped; SIGTERM ends the run cleanly, with the summary.
        #expect(boot.status("flagged") == 0)
        #expect((boot.frames("flagged").summary?["flagged_error"] as? Int ?? 0) >= 1, "\(boot.text("flagged.err"))")
        #expect(boot.text("flagged.err").contains("; stopped by SIGTERM"))
        #expect(boot.status("busy") == 2)
        #expect(boot.text("busy.err").contains("/dev/video0: device is busy: another program is using the camera"))

        #expect(boot.status("unplugged") == 1)
        #expect(boot.text("unplugged.err").contains("/dev/video0: camera unplugged during capture (ENODEV); reconnect it and run again"))
        #expect(boot.frames("unplugged").summary?["error"] != nil)
    }

    /// A black frame (a lens cap, the greenhouse at night) and vivid's own test pattern (colour
    /// bars and a running clock: what a replugged camera may show before its picture comes back)
    /// through a real driver are no-picture.
    @Test func blackFrameAndTestPatternHaveNoPicture() async throws {
        let boot = try await boot("black")
        #expect(boot.status("black") == 0, "\(boot.text("black.err"))")
        let verdicts = boot.frames("black").frames.map { $0["verdict"] as? String ?? "none" }
        #expect(verdicts == ["no-picture", "no-picture", "no-picture"], "\(verdicts)")
        #expect(boot.status("pattern") == 0, "\(boot.text("pattern.err"))")
        let pattern = boot.frames("pattern").frames
        #expect(pattern.map { $0["verdict"] as? String ?? "none" } == ["no-picture", "no-picture", "no-picture"], "\(pattern)")
    }

    /// --every on vivid: one result a second, the camera unplugged (vivid's disconnect control,
    /// then the module unloaded) and plugged back in (the module loaded again, now showing its
    /// own test pattern): the run waits, says so, and carries on; SIGTERM ends it cleanly.
    @Test func everyIntervalWaitsForAnUnpluggedCamera() async throws {
        let reference = try classify(Self.appleScab)
        let boot = try await boot("every")
        #expect(boot.status("every") == 0, "\(boot.text("every.err"))")
        let before = Int(boot.text("before.count").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        let run = boot.frames("every")
        #expect(before >= 3 && run.frames.count >= before + 2, "\(run.frames.count) results, \(before) before the unplug")
        expectEveryFrame(Array(run.frames.prefix(3)), count: 3, matches: reference)
        let errors = boot.text("every.err")
        // The library's own line (the command line's remedy is for errors that end the run, not for a retry).
        #expect(errors.contains("/dev/video0: no such device; no /dev/video* devices exist; trying again in 1 s"))
        #expect(errors.contains("trying again in 2 s"))
        #expect(errors.contains("/dev/video0: camera back after "))
        #expect((run.summary?["failed_attempts"] as? Int ?? 0) >= 2)
        // The log holds the same records, one whole line each.
        let logged = boot.text("every.jsonl").split(separator: "\n").map(String.init)
        #expect(logged.count == run.frames.count && logged.allSatisfy { jsonObject($0)?["time"] is String })
    }

    /// v4l2loopback, the JPEG bytes as MJPEG buffers: 3 frames agree with classify.
    @Test func mjpegThroughLoopback() async throws {
        let reference = try classify(Self.tomatoHealthy)
        let boot = try await boot("mjpeg")
        #expect(boot.status("mjpeg") == 0)
        #expect(boot.text("mjpeg.err").contains("MJPEG 256x256"))
        let mjpeg = boot.frames("mjpeg")
        expectEveryFrame(mjpeg.frames, count: 3, matches: reference)
        #expect(mjpeg.summary?["corrupt"] as? Int == 0)
    }

    /// One terminal cell of a `tmux capture-pane -e` line: its character and its true colours
    /// ([R, G, B], nil for the default or a palette colour).
    typealias Cell = (character: Character, foreground: [Int]?, background: [Int]?)

    /// Follows the SGR escapes of a captured line (tmux writes the attributes that change, in
    /// any grouping), giving each visible character the colours in force.
    func cells(_ line: String) -> [Cell] {
        var (foreground, background): ([Int]?, [Int]?) = (nil, nil)
        var result: [Cell] = []
        var rest = Substring(line)
        while let character = rest.first {
            guard rest.hasPrefix("\u{1B}["), let end = rest.firstIndex(of: "m") else {
                result.append((character, foreground, background))
                rest = rest.dropFirst()
                continue
            }
            var parameters = rest[rest.index(rest.startIndex, offsetBy: 2)..<end].split(separator: ";", omittingEmptySubsequences: false)
                .map { Int($0) ?? 0 }[...]
            rest = rest[rest.index(after: end)...]
            while let code = parameters.popFirst() {
                switch code {
                case 0: (foreground, background) = (nil, nil)
                case 39: foreground = nil
                case 49: background = nil
                case 38, 48:
                    let kind = parameters.popFirst()
                    let colour = kind == 2 ? Array(parameters.prefix(3)) : nil
                    parameters = parameters.dropFirst(kind == 2 ? 3 : 1)
                    if code == 38 { foreground = colour } else { background = colour }
                default: break
                }
            }
        }
        return result
    }

    /// `camera --preview` on a terminal: tmux gives plantleaf a 120x50 pane inside the fixture
    /// and `capture-pane -e` keeps the last redraw with its colours. In true colour the preview's
    /// centre is the leaf (green leads red and blue in every centre cell) and the block is drawn
    /// once, in place; with NO_COLOR it is shades without a single escape.
    @Test func previewInTmuxShowsTheLeaf() async throws {
        let boot = try await boot("preview")

        #expect(boot.status("truecolor") == 0, "\(boot.text("truecolor.err"))")
        let pane = boot.text("truecolor.pane").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Header (cut at the pane's edge, not wrapped), the verdict, its advice line, 24 preview
        // lines, the frame line.
        #expect(pane.count(where: { $0.contains("/dev/video0 (vivid, vivid)") }) == 1, "the block was redrawn in place")
        let previewRows = pane.indices.filter { pane[$0].contains("▀") }
        #expect(pane.count > 1 && Verdict.allCases.contains { pane[1] == ClassificationOutput.verdictLine($0, in: .english) }, "\(pane.prefix(2))")
        #expect(previewRows == Array(3...26), "\(boot.text("truecolor.pane"))")
        // The frame line starts with the capture time: 2026-12-02T10:15:30.123+01:00   frame 42 …
        let frameLine = try Regex(#"^\d{4}-\d\d-\d\dT[\d:.]+[+-]\d\d:\d\d   frame "#)
        #expect(pane.count > 27 && String(cells(pane[27]).map(\.character)).prefixMatch(of: frameLine) != nil, "\(pane.dropFirst(27).prefix(1))")
        let grid = previewRows.map { cells(pane[$0]) }
        #expect(grid.allSatisfy { $0.count == 48 && $0.allSatisfy { $0.character == "▀" } })
        if grid.count == 24 && grid.allSatisfy({ $0.count == 48 }) {
            for row in 8..<16 {
                for column in 16..<32 {
                    let cell = grid[row][column]
                    for colour in [cell.foreground, cell.background] {
                        let (r, g, b) = (colour?[0] ?? -1, colour?[1] ?? -1, colour?[2] ?? -1)
                        #expect(colour?.count == 3 && g > r && g > b, "cell \(column), \(row): \(colour ?? [])")
                    }
                }
            }
        }

        #expect(boot.status("grey") == 0, "\(boot.text("grey.err"))")
        let grey = boot.text("grey.pane")
        #expect(!grey.contains("\u{1B}") && !grey.contains("▀"))
        let greyLines = grey.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(greyLines.count > 27 && greyLines[27].prefixMatch(of: frameLine) != nil, "\(grey)")
        // capture-pane drops trailing blanks, so a line can be shorter than 48 where the edge is dark.
        let shades = Set(TerminalPreview.shades)
        #expect(greyLines.dropFirst(3).prefix(24).allSatisfy { $0.count <= 48 && $0.allSatisfy(shades.contains) })
        #expect(greyLines.count > 13 && greyLines[13].count == 48 && !greyLines[13].contains(" "), "the leaf across the middle")
    }

    /// The loopback as Debian ships it hands out its first buffer with the whole buffer's size
    /// (the JPEG plus trailing zeros); two leaves alternate: both are recognised, none refused,
    /// and --save-frames names each saved frame after its label.
    @Test func alternatingLeavesThroughUnpatchedLoopback() async throws {
        let (apple, tomato) = (try classify(Self.appleScab), try classify(Self.tomatoHealthy))
        #expect(apple.label != tomato.label)
        // Each leaf for 90 frames, 3 s at the loopback's 30 fps: longer than a reading takes in the
        // emulated machine (about 2 s, two model runs), so the readings cannot step over a leaf's
        // whole turn, and 8 of them span both leaves. With 20 frames (0.67 s) a reading every
        // 1.33 or 2.67 s, as a loaded machine gives, took the same leaf each time.
        let boot = try await boot("alternating")
        #expect(boot.status("mjpeg") == 0, "\(boot.text("mjpeg.err"))")
        let run = boot.frames("mjpeg")
        #expect(run.frames.count == 8)
        #expect(run.summary?["corrupt"] as? Int == 0)
        let labels = Set(run.frames.compactMap { topLabel($0)?.0 })
        #expect(labels == [apple.label, tomato.label])
        let saved = (try? FileManager.default.contentsOfDirectory(atPath: boot.directory + "/saved")) ?? []
        #expect(saved.count == 8)
        #expect(saved.allSatisfy { $0.hasSuffix("-\(apple.label).jpg") || $0.hasSuffix("-\(tomato.label).jpg") }, "\(saved)")
    }
}
