import PlantLeafCore
import PlantLeafTestSupport
import Testing

@Suite struct EXIFOrientationTests {
    typealias Colour = (UInt8, UInt8, UInt8)
    static let red: Colour = (255, 0, 0), green: Colour = (0, 255, 0), blue: Colour = (0, 0, 255), white: Colour = (255, 255, 255)

    /// The stored picture has red top-left, green top-right, blue bottom-left, white bottom-right.
    /// For each orientation, what the upright picture shows at its top-left, top-right,
    /// bottom-left and bottom-right (worked out by hand from the EXIF specification).
    static let expectedCorners: [Int: [Colour]] = [
        1: [red, green, blue, white],
        2: [green, red, white, blue],
        3: [white, blue, green, red],
        4: [blue, white, red, green],
        5: [red, blue, green, white],
        6: [blue, red, white, green],
        7: [white, green, blue, red],
        8: [green, white, red, blue],
    ]

    func close(_ a: Colour, _ b: Colour) -> Bool {
        abs(Int(a.0) - Int(b.0)) < 40 && abs(Int(a.1) - Int(b.1)) < 40 && abs(Int(a.2) - Int(b.2)) < 40
    }

    @Test(arguments: 1...8) func orientationIsApplied(orientation: Int) throws {
        let stored = TestImages.quadrants(width: 64, height: 32)
        for bigEndian in [false, true] {
            let jpeg = TestImages.jpeg(stored.pixels, width: 64, height: 32, quality: 100,
                                       exif: TestImages.exif(orientation: orientation, bigEndian: bigEndian))
            let upright = try ImageDecoder().decode(jpeg)
            let turned = orientation >= 5
            #expect(upright.width == (turned ? 32 : 64) && upright.height == (turned ? 64 : 32))
            let (right, bottom) = (upright.width - 4, upright.height - 4)
            let corners = [upright[3, 3], upright[right, 3], upright[3, bottom], upright[right, bottom]]
            for (seen, expected) in zip(corners, Self.expectedCorners[orientation]!) {
                #expect(close(seen, expected), "orientation \(orientation): saw \(seen), expected \(expected)")
            }
        }
    }

    @Test func malformedOrMissingTagsMeanUpright() {
        #expect(EXIFOrientation.read(fromAPP1: []) == .upright)
        #expect(EXIFOrientation.read(fromAPP1: Array(TestImages.exif(orientation: 6).prefix(20))) == .upright)
        #expect(EXIFOrientation.read(fromAPP1: TestImages.exif(orientation: 9)) == .upright)
        var wrongMagic = TestImages.exif(orientation: 6)
        wrongMagic[8] = 0
        #expect(EXIFOrientation.read(fromAPP1: wrongMagic) == .upright)
        #expect(EXIFOrientation.read(fromAPP1: TestImages.exif(orientation: 6)) == .rotated90Clockwise)
    }
}
