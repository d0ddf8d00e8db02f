import PlantLeafCore
import PlantLeafCamera
import Testing

// A picture and a pixel check shared by the camera frame suites (FrameConverterTests,
// MJPEGFrameTests, YCbCrTests).

/// A width x height picture: a red band on the left, a blue band on the right, both as wide as
/// the part a centre crop cuts off, and green between.
func bands(width: Int, height: Int) -> RGBImage {
    let side = (width - height) / 2
    var pixels: [UInt8] = []
    for _ in 0..<height {
        for x in 0..<width {
            pixels += x < side ? [220, 30, 30] : x >= width - side ? [30, 30, 220] : [30, 200, 40]
        }
    }
    return RGBImage(width: width, height: height, pixels: pixels)
}

/// Expects each channel of `pixel` within `tolerance` levels of `expected`.
func expectClose(_ pixel: (UInt8, UInt8, UInt8), _ expected: (Int, Int, Int), tolerance: Int = 3,
                 sourceLocation: SourceLocation = #_sourceLocation) {
    let ok = abs(Int(pixel.0) - expected.0) <= tolerance && abs(Int(pixel.1) - expected.1) <= tolerance
        && abs(Int(pixel.2) - expected.2) <= tolerance
    #expect(ok, "got \(pixel), expected \(expected)", sourceLocation: sourceLocation)
}
