// swift-tools-version: 6.0
// PlantLeaf: on-device leaf-disease classification on LiteRT, libpng, libjpeg-turbo and V4L2.
import PackageDescription

let package = Package(
    name: "PlantLeaf",
    products: [
        .library(name: "PlantLeafKit", targets: ["PlantLeafKit"]),
        .executable(name: "plantleaf", targets: ["plantleaf"]),
    ],
    targets: [
        // One small C shim per C library: each exposes plain functions for what Swift cannot
        // do safely (setjmp error recovery, macros, ioctl numbers, dlopen of the runtime).
        .target(name: "CLiteRt", linkerSettings: [.linkedLibrary("dl")]),
        // libmosquitto is opened with dlopen too: only `--mqtt` needs it installed.
        .target(name: "CMosquitto", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CPNG", linkerSettings: [.linkedLibrary("png16")]),
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        // Declares libFuzzer's driver entry for the fuzz build of plantleaf-fuzz.
        .target(name: "CFuzzer"),
        .target(name: "CV4L2"),
        .target(name: "CAllocator"),
        .target(name: "PlantLeafKit", dependencies: ["CLiteRt", "CMosquitto", "CPNG", "CJPEG", "CV4L2", "CAllocator"]),
        // The command-line front end: options, help texts, what to type when something fails.
        .target(name: "PlantLeafCommandLine", dependencies: ["PlantLeafKit"]),
        .executableTarget(name: "plantleaf", dependencies: ["PlantLeafCommandLine"]),
        // Encodes the PNG variants the decoder must read: for the tests and fuzz seeds only.
        .target(name: "CPNGEncoder", path: "Tests/CPNGEncoder", linkerSettings: [.linkedLibrary("png16")]),
        // Helpers shared by the test targets: running the built binary, making test images.
        .target(name: "PlantLeafTestSupport", dependencies: ["PlantLeafKit", "PlantLeafCommandLine", "CPNGEncoder", "CJPEG"],
                path: "Tests/PlantLeafTestSupport"),
        // Fuzz driver (seeds, replay; libFuzzer when built by `make fuzz`), targets in PlantLeafTestSupport.
        .executableTarget(name: "plantleaf-fuzz", dependencies: ["PlantLeafTestSupport", "CFuzzer"], path: "Fuzz"),
        .testTarget(name: "PlantLeafKitTests", dependencies: ["PlantLeafKit", "PlantLeafTestSupport", "CPNG", "CJPEG"]),
        // Expected/ holds the recorded whole outputs HelpTextTests compares with.
        .testTarget(name: "PlantLeafCLITests", dependencies: ["PlantLeafKit", "PlantLeafCommandLine", "PlantLeafTestSupport"],
                    exclude: ["Expected"]),
        // Camera runs through real V4L2 drivers in a VM (../shared/tools/camera-fixture).
        .testTarget(name: "PlantLeafCameraTests", dependencies: ["PlantLeafKit", "PlantLeafTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
