import Testing

// A pixel check shared by the camera frame suites (FrameConverterTests, YCbCrTests).

/// Expects each channel of `pixel` within `tolerance` levels of `expected`.
func expectClose(_ pixel: (UInt8, UInt8, UInt8), _ expected: (Int, Int, Int), tolerance: Int = 3,
                 sourceLocation: SourceLocation = #_sourceLocation) {
    let ok = abs(Int(pixel.0) - expected.0) <= tolerance && abs(Int(pixel.1) - expected.1) <= tolerance
        && abs(Int(pixel.2) - expected.2) <= tolerance
    #expect(ok, "got \(pixel), expected \(expected)", sourceLocation: sourceLocation)
}
