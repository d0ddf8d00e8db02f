// swift-tools-version: 6.0
// A package of its own that uses PlantLeaf as any other package would: only the PlantLeafKit
// product's public API, the runtime wherever this program says it is. docs/pipeline.md shows
// its main.swift, and `make example` builds and runs it.
import PackageDescription

let package = Package(
    name: "LeafCheck",
    dependencies: [.package(name: "PlantLeaf", path: "../..")],
    targets: [
        .executableTarget(name: "LeafCheck", dependencies: [.product(name: "PlantLeafKit", package: "PlantLeaf")]),
    ],
    swiftLanguageModes: [.v6]
)
