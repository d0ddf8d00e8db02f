import PlantLeafCore
import PlantLeafCamera
import PlantLeafCommandLine
import Testing

/// `camera --preview`'s picture: area averaging, the escapes of each colour mode, and the mode
/// the environment chooses.
@Suite struct TerminalPreviewTests {
    static let escape = "\u{1B}["
    static let reset = "\u{1B}[0m"

    /// An image whose pixel (x, y) is `colour(x, y)`.
    func image(width: Int, height: Int, _ colour: (Int, Int) -> (UInt8, UInt8, UInt8)) -> RGBImage {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = colour(x, y)
                pixels += [r, g, b]
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    func solid(_ r: UInt8, _ g: UInt8, _ b: UInt8, size: Int = 224) -> RGBImage {
        image(width: size, height: size) { _, _ in (r, g, b) }
    }

    func foreground(_ r: Int, _ g: Int, _ b: Int) -> String { "\(Self.escape)38;2;\(r);\(g);\(b)m" }
    func background(_ r: Int, _ g: Int, _ b: Int) -> String { "\(Self.escape)48;2;\(r);\(g);\(b)m" }

    /// The line as the terminal shows it: every `ESC[...m` taken out.
    func visible(_ line: String) -> String {
        var text = ""
        var inEscape = false
        for character in line {
            if character == "\u{1B}" {
                inEscape = true
            } else if inEscape {
                if character == "m" { inEscape = false }
            } else {
                text.append(character)
            }
        }
        return text
    }

    // MARK: true colour

    @Test func solidColourIsOneEscapePairALineThenHalfBlocks() {
        let lines = TerminalPreview(mode: .trueColor).render(solid(10, 200, 30))
        #expect(lines.count == 24)
        let expected = foreground(10, 200, 30) + background(10, 200, 30) + String(repeating: "▀", count: 48) + Self.reset
        for line in lines { #expect(line == expected) }
    }

    @Test func leftRightSplitChangesBothColoursOnce() {
        let split = image(width: 8, height: 4) { x, _ in x < 4 ? (255, 0, 0) : (0, 0, 255) }
        let lines = TerminalPreview(columns: 4, rows: 1, mode: .trueColor).render(split)
        #expect(lines == [foreground(255, 0, 0) + background(255, 0, 0) + "▀▀" + foreground(0, 0, 255) + background(0, 0, 255) + "▀▀" + Self.reset])
    }

    @Test func topBottomSplitIsForegroundOverBackground() {
        let split = image(width: 4, height: 4) { _, y in y < 2 ? (255, 0, 0) : (0, 255, 0) }
        let lines = TerminalPreview(columns: 2, rows: 1, mode: .trueColor).render(split)
        #expect(lines == [foreground(255, 0, 0) + background(0, 255, 0) + "▀▀" + Self.reset])
    }

    @Test func onlyTheLayerThatChangesGetsAnEscape() {
        // Upper pixels red then blue, lower ones green throughout: the background is set once.
        let picture = image(width: 2, height: 2) { x, y in y == 1 ? (0, 255, 0) : x == 0 ? (255, 0, 0) : (0, 0, 255) }
        let lines = TerminalPreview(columns: 2, rows: 1, mode: .trueColor).render(picture)
        #expect(lines == [foreground(255, 0, 0) + background(0, 255, 0) + "▀" + foreground(0, 0, 255) + "▀" + Self.reset])
    }

    @Test func eachLineStartsItsColoursAfresh() {
        // The reset ends every line, so the second line must set both colours again.
        let lines = TerminalPreview(columns: 1, rows: 2, mode: .trueColor).render(solid(1, 2, 3, size: 4))
        #expect(lines == Array(repeating: foreground(1, 2, 3) + background(1, 2, 3) + "▀" + Self.reset, count: 2))
    }

    @Test func sizesTheGridDoesNotDivideAverageEveryPixelOnce() {
        // 7 x 5 into 2 x 2 pixels: columns 0-2 and 3-6, rows 0-1 and 2-4.
        let ramp = image(width: 7, height: 5) { x, y in (UInt8(x * 30), UInt8(y * 50), 7) }
        let lines = TerminalPreview(columns: 2, rows: 1, mode: .trueColor).render(ramp)
        // Red: mean(0, 30, 60) = 30, mean(90 ... 180) = 135; green: mean(0, 50) = 25, mean(100, 150, 200) = 150.
        #expect(lines == [foreground(30, 25, 7) + background(30, 150, 7) + "▀" + foreground(135, 25, 7) + background(135, 150, 7) + "▀" + Self.reset])
    }

    @Test func meansRoundToNearest() {
        let pair = image(width: 2, height: 2) { x, y in y == 0 ? (UInt8(x), 0, 0) : (UInt8(3 * x), 0, 0) }
        // Upper: mean(0, 1) = 0.5 rounds up to 1; lower: mean(0, 3) = 1.5 rounds up to 2.
        #expect(TerminalPreview(columns: 1, rows: 1, mode: .trueColor).render(pair) == [foreground(1, 0, 0) + background(2, 0, 0) + "▀" + Self.reset])
        let third = image(width: 3, height: 2) { x, _ in (x == 2 ? 1 : 0, x == 0 ? 0 : 1, 0) }
        // mean(0, 0, 1) = 0.33 is 0; mean(0, 1, 1) = 0.67 is 1.
        #expect(TerminalPreview(columns: 1, rows: 1, mode: .trueColor).render(third) == [foreground(0, 1, 0) + background(0, 1, 0) + "▀" + Self.reset])
    }

    @Test func modelInputSizeGivesTheDefaultBlock() {
        let odd = image(width: 224, height: 224) { x, y in (UInt8(x), UInt8(y), UInt8((x * y) % 256)) }
        for mode in [TerminalColorMode.trueColor, .palette256, .grey] {
            let lines = TerminalPreview(mode: mode).render(odd)
            #expect(lines.count == 24, "\(mode)")
            #expect(lines.allSatisfy { visible($0).count == 48 }, "\(mode)")
            #expect(lines.allSatisfy { $0.hasSuffix(Self.reset) } == (mode != .grey), "\(mode)")
        }
    }

    @Test func imageSmallerThanTheGridRepeatsItsPixels() {
        let tiny = image(width: 3, height: 3) { x, _ in x == 0 ? (255, 255, 255) : (0, 0, 0) }
        let lines = TerminalPreview(columns: 6, rows: 3, mode: .grey).render(tiny)
        #expect(lines == Array(repeating: "██    ", count: 3))
    }

    @Test func noneAndEmptyImagesDrawNothing() {
        #expect(TerminalPreview(mode: .none).render(solid(0, 255, 0)).isEmpty)
        #expect(TerminalPreview(mode: .trueColor).render(RGBImage(width: 0, height: 0, pixels: [])).isEmpty)
    }

    // MARK: 256 colours

    @Test func paletteIndicesOfPrimariesGreysWhiteAndBlack() {
        #expect(TerminalPreview.paletteIndex(red: 255, green: 0, blue: 0) == 196)
        #expect(TerminalPreview.paletteIndex(red: 0, green: 255, blue: 0) == 46)
        #expect(TerminalPreview.paletteIndex(red: 0, green: 0, blue: 255) == 21)
        #expect(TerminalPreview.paletteIndex(red: 255, green: 255, blue: 255) == 231)
        #expect(TerminalPreview.paletteIndex(red: 0, green: 0, blue: 0) == 16)
        // Mid grey: the ramp's 128 (232 + 12) is exact; the cube's nearest is 135.
        #expect(TerminalPreview.paletteIndex(red: 128, green: 128, blue: 128) == 244)
        // The ramp's ends and the halfway point between its first two steps (8 and 18).
        #expect(TerminalPreview.paletteIndex(red: 8, green: 8, blue: 8) == 232)
        #expect(TerminalPreview.paletteIndex(red: 12, green: 12, blue: 12) == 232)
        #expect(TerminalPreview.paletteIndex(red: 13, green: 13, blue: 13) == 233)
        #expect(TerminalPreview.paletteIndex(red: 238, green: 238, blue: 238) == 255)
        // A grey the cube has exactly (95) beats the ramp's nearest (98).
        #expect(TerminalPreview.paletteIndex(red: 95, green: 95, blue: 95) == 59)
        // Cube level edges, with blue at full so no grey is near: 47 is level 0, 48 level 1 (95),
        // 114 level 1, 115 level 2 (135).
        #expect(TerminalPreview.paletteIndex(red: 47, green: 0, blue: 255) == 21)
        #expect(TerminalPreview.paletteIndex(red: 48, green: 0, blue: 255) == 57)
        #expect(TerminalPreview.paletteIndex(red: 114, green: 0, blue: 255) == 57)
        #expect(TerminalPreview.paletteIndex(red: 115, green: 0, blue: 255) == 93)
    }

    @Test func palette256WritesIndicesAndSkipsColoursThatMapToTheSameOne() {
        // (250, 0, 0) and (255, 0, 0) are both 196: one escape pair for the whole line.
        let reds = image(width: 4, height: 2) { x, _ in x < 2 ? (250, 0, 0) : (255, 0, 0) }
        let lines = TerminalPreview(columns: 4, rows: 1, mode: .palette256).render(reds)
        #expect(lines == ["\(Self.escape)38;5;196m\(Self.escape)48;5;196m▀▀▀▀" + Self.reset])
        let split = image(width: 2, height: 2) { _, y in y == 0 ? (0, 0, 255) : (128, 128, 128) }
        #expect(TerminalPreview(columns: 2, rows: 1, mode: .palette256).render(split) == ["\(Self.escape)38;5;21m\(Self.escape)48;5;244m▀▀" + Self.reset])
    }

    // MARK: grey

    @Test func greyShadesByLuminanceWithoutEscapes() {
        func shade(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> String {
            let lines = TerminalPreview(columns: 1, rows: 1, mode: .grey).render(solid(r, g, b, size: 2))
            return lines.count == 1 ? lines[0] : "\(lines)"
        }
        #expect(shade(0, 0, 0) == " ")
        #expect(shade(50, 50, 50) == " ")
        #expect(shade(51, 51, 51) == "░")
        #expect(shade(101, 101, 101) == "░")
        #expect(shade(102, 102, 102) == "▒")
        #expect(shade(128, 128, 128) == "▒")
        #expect(shade(153, 153, 153) == "▓")
        #expect(shade(203, 203, 203) == "▓")
        #expect(shade(204, 204, 204) == "█")
        #expect(shade(255, 255, 255) == "█")
        // BT.601: pure green is Y 149.7 (▒), pure blue 29.1 (space), pure red 76.2 (░).
        #expect(shade(0, 255, 0) == "▒")
        #expect(shade(0, 0, 255) == " ")
        #expect(shade(255, 0, 0) == "░")

        let lines = TerminalPreview(mode: .grey).render(solid(255, 255, 255))
        #expect(lines == Array(repeating: String(repeating: "█", count: 48), count: 24))
        #expect(!lines.joined().contains("\u{1B}"))
    }

    @Test func greyAveragesTheCellsTwoPixels() {
        // Black over white: Y 127.5, the middle shade; black over Y 102: 51, the first band up.
        let blackOverWhite = image(width: 1, height: 2) { _, y in y == 0 ? (0, 0, 0) : (255, 255, 255) }
        #expect(TerminalPreview(columns: 1, rows: 1, mode: .grey).render(blackOverWhite) == ["▒"])
        let blackOverDim = image(width: 1, height: 2) { _, y in y == 0 ? (0, 0, 0) : (102, 102, 102) }
        #expect(TerminalPreview(columns: 1, rows: 1, mode: .grey).render(blackOverDim) == ["░"])
    }

    // MARK: the mode from the environment

    @Test func environmentRules() {
        let cases: [([String: String], TerminalColorMode)] = [
            // NO_COLOR (non-empty, any value) wins over everything, even a dumb or missing TERM.
            (["NO_COLOR": "1", "TERM": "xterm-256color", "COLORTERM": "truecolor"], .grey),
            (["NO_COLOR": "0", "TERM": "xterm"], .grey),
            (["NO_COLOR": "yes", "TERM": "dumb"], .grey),
            (["NO_COLOR": "1"], .grey),
            // no-color.org: an empty NO_COLOR does not count.
            (["NO_COLOR": "", "TERM": "xterm", "COLORTERM": "truecolor"], .trueColor),
            // No TERM, an empty one or dumb: no preview, whatever COLORTERM says.
            ([:], .none),
            (["COLORTERM": "truecolor"], .none),
            (["TERM": "", "COLORTERM": "truecolor"], .none),
            (["TERM": "dumb", "COLORTERM": "24bit"], .none),
            // COLORTERM for 24-bit, in any case, before TERM's 256 colours.
            (["TERM": "xterm-256color", "COLORTERM": "truecolor"], .trueColor),
            (["TERM": "xterm", "COLORTERM": "24bit"], .trueColor),
            (["TERM": "screen", "COLORTERM": "TrueColor"], .trueColor),
            (["TERM": "xterm-256color", "COLORTERM": "yes"], .palette256),
            (["TERM": "xterm-256color"], .palette256),
            (["TERM": "tmux-256color"], .palette256),
            (["TERM": "screen.xterm-256color"], .palette256),
            // Anything else: grey.
            (["TERM": "xterm"], .grey),
            (["TERM": "linux"], .grey),
            (["TERM": "vt100", "COLORTERM": "1"], .grey),
        ]
        for (environment, mode) in cases {
            #expect(TerminalColorMode.detect(environment: environment) == mode, "\(environment)")
        }
    }
}
