import PlantLeafKit
import PlantLeafTestSupport
import Testing

/// PNGs with a tRNS chunk lose their transparency and keep their colours, as PIL's
/// convert("RGB") does. A palette PNG with tRNS was refused ("unexpected row layout") until the
/// fuzz seeds showed it: expanding the palette had turned tRNS into a fourth channel.
@Suite struct PNGTransparencyTests {
    @Test func paletteWithTransparencyDecodesToThePaletteColours() throws {
        let palette: [UInt8] = [200, 10, 20, 30, 220, 40, 50, 60, 240]
        let png = TestImages.png([0, 1, 2, 2, 1, 0], width: 3, height: 2, colorType: 3, bitDepth: 8,
                                 palette: palette, transparency: [0, 128])
        let image = try ImageDecoder().decode(png)
        #expect(image.pixels == [200, 10, 20, 30, 220, 40, 50, 60, 240, 50, 60, 240, 30, 220, 40, 200, 10, 20])
    }

    @Test func grayAndRGBWithTransparentColourKeepTheirPixels() throws {
        let gray = TestImages.png([0, 255, 77, 9], width: 2, height: 2, colorType: 0, bitDepth: 8, transparency: [77])
        #expect(try ImageDecoder().decode(gray).pixels == [0, 0, 0, 255, 255, 255, 77, 77, 77, 9, 9, 9])
        let rgb = TestImages.png([1, 2, 3, 4, 5, 6], width: 2, height: 1, colorType: 2, bitDepth: 8, transparency: [1, 2, 3])
        #expect(try ImageDecoder().decode(rgb).pixels == [1, 2, 3, 4, 5, 6])
    }
}
