// swift-tools-version: 6.0
// PlantLeaf: on-device leaf-disease classification on LiteRT, libpng, libjpeg-turbo and V4L2.
import PackageDescription

let package = Package(
    name: "PlantLeaf",
    products: [
        // The library others import: PlantLeafCore (over PlantLeafSupport) alone classifies files;
        // the camera, bench and MQTT modules add frame sources, benchmark runs and reports, and MQTT
        // publishing on top of it.
        .library(name: "PlantLeafKit", targets: ["PlantLeafSupport", "PlantLeafCore", "PlantLeafCamera", "PlantLeafBench", "PlantLeafMQTT"]),
        .executable(name: "plantleaf", targets: ["plantleaf"]),
    ],
    targets: [
        // Files under a target's Embedded/ folder become string constants of that target at build
        // time (`EmbeddedFiles.text`): one binary that needs no files beside it.
        .plugin(name: "EmbedFiles", capability: .buildTool()),
        // One small C shim per C library: each exposes plain functions for what Swift cannot
        // do safely (setjmp error recovery, macros, ioctl numbers, dlopen of the runtime).
        // Opens a library with dlopen and fills a table of its entry points, once per process:
        // what the three shims below share.
        .target(name: "CLibraryLoader", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CLiteRt", dependencies: ["CLibraryLoader"]),
        // libmosquitto is opened with dlopen too: only `--mqtt` needs it installed.
        .target(name: "CMosquitto", dependencies: ["CLibraryLoader"]),
        // libmicrohttpd likewise: only `serve` needs it installed.
        .target(name: "CMicroHTTPD", dependencies: ["CLibraryLoader"]),
        // libsqlite3 likewise: the journal says in one line that it is missing, the camera reads on.
        .target(name: "CSQLite", dependencies: ["CLibraryLoader"]),
        .target(name: "CPNG", linkerSettings: [.linkedLibrary("png16")]),
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        // Declares libFuzzer's driver entry for the fuzz build of plantleaf-fuzz.
        .target(name: "CFuzzer"),
        .target(name: "CV4L2"),
        .target(name: "CAllocator"),
        // CPU affinity for bench --cpus (cpu_set_t's macros).
        .target(name: "CScheduler"),
        // The resize's inner loops with SIMD intrinsics (SSE4.1/AVX2 chosen at run time, NEON);
        // the portable Swift loops stay as their reference and fallback.
        .target(name: "CResample"),
        // Dependencies run one way: support <- core, core <- camera, core <- bench, core <- mqtt,
        // core <- journal <- lessons <- serve, and the command line over the other seven; each module also
        // imports support itself (docs/pipeline.md's table, checked by ModuleTableTests).
        // What every module uses and that knows nothing of leaves or of the catalogue's words: the
        // error protocol, JSON reading and writing, number and terminal text, clocks, locks, threads,
        // system calls and their errors, signals, byte path names, SHA-256, the allocator setting.
        .target(name: "PlantLeafSupport", dependencies: ["CAllocator"]),
        // The core: LiteRT, decoding, resizing, frame conversion, scoring, the Classifier, and the
        // machine-readable result every front end writes.
        // Its Embedded/ folder holds the text catalogue, one file per language (Locales/en.json...).
        .target(name: "PlantLeafCore", dependencies: ["PlantLeafSupport", "CLiteRt", "CLibraryLoader", "CPNG", "CJPEG", "CResample", "CScheduler"],
                plugins: ["EmbedFiles"]),
        // Frame sources (V4L2 devices, motion-JPEG streams), the latest-frame mailbox, the session.
        .target(name: "PlantLeafCamera", dependencies: ["PlantLeafSupport", "PlantLeafCore", "CV4L2"]),
        // Bench runs and their reports: the machine record, CPU sets, the runner, comparison, HTML.
        // Its Embedded/ folder holds the comparison page's template, style sheet and script.
        .target(name: "PlantLeafBench", dependencies: ["PlantLeafSupport", "PlantLeafCore", "CScheduler", "CJPEG"],
                plugins: ["EmbedFiles"]),
        // Results published over MQTT, with Home Assistant's discovery messages.
        .target(name: "PlantLeafMQTT", dependencies: ["PlantLeafSupport", "PlantLeafCore", "CMosquitto", "CLibraryLoader"]),
        // The web front end of `plantleaf serve`: the HTTP server on libmicrohttpd, the page and the
        // JSON API, the history from the journal. Its Embedded/ folder holds the pages, the script,
        // the style sheet and the icon.
        .target(name: "PlantLeafServe", dependencies: ["PlantLeafSupport", "PlantLeafCore", "PlantLeafJournal", "PlantLeafLessons", "CMicroHTTPD", "CLibraryLoader"],
                plugins: ["EmbedFiles"]),
        // The greenhouse journal: readings, events and their pictures in SQLite, with retention.
        .target(name: "PlantLeafJournal", dependencies: ["PlantLeafSupport", "PlantLeafCore", "CSQLite", "CLibraryLoader"]),
        // A grower's lessons (taught classes, with their features and pictures) in an SQLite file
        // of their own, never pruned with the journal; it opens SQLite through the journal's connection.
        .target(name: "PlantLeafLessons", dependencies: ["PlantLeafSupport", "PlantLeafCore", "PlantLeafJournal"]),
        // The command-line front end: options, help texts, terminal presentation, what to type
        // when something fails.
        .target(name: "PlantLeafCommandLine", dependencies: ["PlantLeafSupport", "PlantLeafCore", "PlantLeafCamera", "PlantLeafBench", "PlantLeafMQTT", "PlantLeafServe",
                                                            "PlantLeafJournal", "PlantLeafLessons"]),
        .executableTarget(name: "plantleaf", dependencies: ["PlantLeafCommandLine"]),
        // Encodes the PNG variants the decoder must read: for the tests and fuzz seeds only.
        .target(name: "CPNGEncoder", path: "Tests/CPNGEncoder", linkerSettings: [.linkedLibrary("png16")]),
        // Helpers shared by the test targets: running the built binary, making test images.
        .target(name: "PlantLeafTestSupport", dependencies: ["PlantLeafSupport", "PlantLeafCore", "PlantLeafJournal", "PlantLeafLessons", "PlantLeafCamera", "PlantLeafBench", "PlantLeafServe", "PlantLeafCommandLine", "CPNGEncoder", "CJPEG", "CLibraryLoader", "CSQLite"],
                path: "Tests/PlantLeafTestSupport"),
        // Fuzz driver (seeds, replay; libFuzzer when built by `make fuzz`), targets in PlantLeafTestSupport.
        .executableTarget(name: "plantleaf-fuzz", dependencies: ["PlantLeafTestSupport", "CFuzzer"], path: "Fuzz"),
        // One unit-test target per module, each depending on its module and the modules under it
        // (a test that checks several modules' forms of one thing lives with the lowest module that
        // sees them all: the record's and catalogue's checks with the command line's).
        .testTarget(name: "PlantLeafSupportTests", dependencies: ["PlantLeafSupport"]),
        .testTarget(name: "PlantLeafCoreTests", dependencies: ["PlantLeafSupport", "PlantLeafCore", "PlantLeafTestSupport", "CLibraryLoader", "CPNG", "CScheduler"]),
        // PlantLeafCameraTests is the camera fixture's VM suite (below); these need no camera.
        .testTarget(name: "PlantLeafCameraUnitTests", dependencies: ["PlantLeafSupport", "PlantLeafCore", "PlantLeafCamera", "PlantLeafTestSupport"]),
        .testTarget(name: "PlantLeafBenchTests", dependencies: ["PlantLeafSupport", "PlantLeafCore", "PlantLeafBench", "PlantLeafTestSupport"]),
        .testTarget(name: "PlantLeafMQTTTests", dependencies: ["PlantLeafSupport", "PlantLeafCore", "PlantLeafMQTT", "PlantLeafTestSupport"]),
        .testTarget(name: "PlantLeafJournalTests", dependencies: ["PlantLeafSupport", "PlantLeafCore", "PlantLeafJournal", "PlantLeafTestSupport"]),
        .testTarget(name: "PlantLeafLessonsTests", dependencies: ["PlantLeafSupport", "PlantLeafCore", "PlantLeafLessons", "PlantLeafTestSupport"]),
        .testTarget(name: "PlantLeafServeTests", dependencies: ["PlantLeafSupport", "PlantLeafCore", "PlantLeafJournal", "PlantLeafServe", "PlantLeafTestSupport"]),
        .testTarget(name: "PlantLeafCommandLineTests", dependencies: ["PlantLeafSupport", "PlantLeafCore", "PlantLeafCamera", "PlantLeafJournal", "PlantLeafMQTT", "PlantLeafServe", "PlantLeafCommandLine", "PlantLeafTestSupport"]),
        // The helpers' own tests (the runner, temporary folders, the diff) and the fuzz seeds.
        .testTarget(name: "PlantLeafTestSupportTests", dependencies: ["PlantLeafSupport", "PlantLeafCore", "PlantLeafCamera", "PlantLeafBench", "PlantLeafServe", "PlantLeafCommandLine", "PlantLeafTestSupport"]),
        // Expected/ holds the recorded whole outputs HelpTextTests compares with; Browser/ the script
        // ServeBrowserTests drives Chromium with.
        .testTarget(name: "PlantLeafCLITests", dependencies: ["PlantLeafSupport", "PlantLeafCore", "PlantLeafJournal", "PlantLeafLessons", "PlantLeafCamera", "PlantLeafBench", "PlantLeafMQTT", "PlantLeafCommandLine", "PlantLeafTestSupport"],
                    exclude: ["Expected", "Browser"]),
        // Camera runs through real V4L2 drivers in a VM (../shared/tools/camera-fixture).
        .testTarget(name: "PlantLeafCameraTests", dependencies: ["PlantLeafCore", "PlantLeafCamera", "PlantLeafCommandLine", "PlantLeafTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
