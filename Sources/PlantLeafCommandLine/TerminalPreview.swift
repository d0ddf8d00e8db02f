import PlantLeafCore
import PlantLeafCamera
/// A picture of an image made of terminal cells, for aiming a camera over SSH: the live view
/// draws the model's input with it, so what the grower sees is exactly what is classified.
///
/// The image is shrunk to `columns` x `2 * rows` pixels by area averaging: each pixel is the
/// rounded integer mean of a box of source pixels, the boxes tiling the image (`i * size / count`
/// to `(i + 1) * size / count`), so a source size that the grid does not divide still counts every
/// pixel once. An image smaller than the grid repeats its pixels instead.
///
/// In the colour modes each cell is the upper half block `▀` with the upper pixel as foreground and
/// the lower one as background, so a cell carries two pixels and the picture keeps its proportions
/// in the usual 1:2 cells. A colour escape is written only when the colour differs from the cell
/// before it on the line (over SSH, a 48 x 24 block of one colour is then about 5 KB, mostly the
/// 3-byte `▀`s, instead of about 45 KB), and each line ends with an SGR reset (`ESC[0m`) so the
/// lines drawn after it are not coloured.
public struct TerminalPreview: Sendable {
    /// 48 x 24 cells, 48 x 48 pixels: under half the width of an 80-column terminal, and with the
    /// status lines it fits a 30-line one.
    public static let defaultColumns = 48, defaultRows = 24
    /// Shading from dark to light for ``TerminalColorMode/grey``: five equal luminance bands.
    public static let shades: [Character] = [" ", "░", "▒", "▓", "█"]
    public static let reset = "\u{1B}[0m"

    public let columns: Int
    public let rows: Int
    public let mode: TerminalColorMode

    /// A preview `columns` cells wide and `rows` cells high (each cell two pixels tall), in `mode`.
    public init(columns: Int = defaultColumns, rows: Int = defaultRows, mode: TerminalColorMode) {
        precondition(columns >= 1 && rows >= 1, "a preview needs at least one cell")
        self.columns = columns
        self.rows = rows
        self.mode = mode
    }

    /// The preview's lines, top to bottom: `rows` lines of `columns` visible characters, or none
    /// for ``TerminalColorMode/none`` and for an empty image.
    ///
    /// ``TerminalColorMode/grey`` lines are plain text, without even the reset: the mode is for
    /// terminals that must not, or may not be able to, take escapes, and it sets no colour to undo.
    public func render(_ image: RGBImage) -> [String] {
        guard mode != .none, image.width > 0, image.height > 0 else { return [] }
        let pixels = downscale(image)
        return (0..<rows).map { row in
            let upper = pixels[(2 * row) * columns ..< (2 * row + 1) * columns]
            let lower = pixels[(2 * row + 1) * columns ..< (2 * row + 2) * columns]
            return mode == .grey ? shadedLine(upper: upper, lower: lower) : colouredLine(upper: upper, lower: lower)
        }
    }

    /// The xterm 256-colour palette entry nearest to a colour: the nearer, by squared distance in
    /// RGB, of two candidates.
    ///
    /// - The 6 x 6 x 6 cube, index `16 + 36 r + 6 g + b`, whose levels are 0, 95, 135, 175, 215 and
    ///   255. Each channel `v` takes its nearest level independently: 0 when `v < 48`, 1 (95) when
    ///   `v < 115`, else `(v - 35) / 40` (the halfway points are 47.5, 115, 155, 195 and 235).
    /// - The grey ramp, index `232 + k` for grey `8 + 10 k`, k from 0 to 23. The ramp's nearest
    ///   point to a colour is at the mean `m` of its channels, so `k = (m - 3) / 10`, clamped.
    ///
    /// A tie goes to the cube, which has true black (16) and white (231). Entries 0 to 15 are left
    /// out: terminals give them colours of their own choosing.
    public static func paletteIndex(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        func level(_ value: Int) -> Int { value < 48 ? 0 : value < 115 ? 1 : (value - 35) / 40 }
        func levelValue(_ level: Int) -> Int { level == 0 ? 0 : 55 + 40 * level }
        func distance(_ r: Int, _ g: Int, _ b: Int) -> Int {
            let (dr, dg, db) = (r - Int(red), g - Int(green), b - Int(blue))
            return dr * dr + dg * dg + db * db
        }
        let (r, g, b) = (level(Int(red)), level(Int(green)), level(Int(blue)))
        let cubeDistance = distance(levelValue(r), levelValue(g), levelValue(b))
        let mean = (Int(red) + Int(green) + Int(blue)) / 3
        let step = min(23, max(0, (mean - 3) / 10))
        let grey = 8 + 10 * step
        if distance(grey, grey, grey) < cubeDistance { return UInt8(232 + step) }
        return UInt8(16 + 36 * r + 6 * g + b)
    }

    // MARK: cells

    /// `▀` cells; a colour is 0xRRGGBB, or in the 256-colour mode its palette index, which is
    /// also what decides whether the escape can be left out.
    private func colouredLine(upper: ArraySlice<UInt32>, lower: ArraySlice<UInt32>) -> String {
        let trueColor = mode == .trueColor
        func colour(_ rgb: UInt32) -> UInt32 {
            trueColor ? rgb : UInt32(Self.paletteIndex(red: UInt8(rgb >> 16), green: UInt8(truncatingIfNeeded: rgb >> 8),
                                                        blue: UInt8(truncatingIfNeeded: rgb)))
        }
        func escape(_ layer: Int, _ colour: UInt32) -> String {
            trueColor ? "\u{1B}[\(layer);2;\(colour >> 16);\((colour >> 8) & 0xFF);\(colour & 0xFF)m" : "\u{1B}[\(layer);5;\(colour)m"
        }
        var line = ""
        var (foreground, background): (UInt32?, UInt32?) = (nil, nil)
        for (top, bottom) in zip(upper, lower) {
            let (up, down) = (colour(top), colour(bottom))
            if up != foreground {
                line += escape(38, up)
                foreground = up
            }
            if down != background {
                line += escape(48, down)
                background = down
            }
            line += "▀"
        }
        return line + Self.reset
    }

    /// One shade per cell from the mean BT.601 luma Y = 0.299 R + 0.587 G + 0.114 B of its two
    /// pixels, worked in thousandths so the bands' edges are exact: shade `5 Y / 255` rounded down,
    /// the top band also taking 255. Y below 51 is a space, 204 and above a full block.
    private func shadedLine(upper: ArraySlice<UInt32>, lower: ArraySlice<UInt32>) -> String {
        func luma(_ rgb: UInt32) -> Int { 299 * Int(rgb >> 16) + 587 * Int((rgb >> 8) & 0xFF) + 114 * Int(rgb & 0xFF) }
        var line = ""
        for (top, bottom) in zip(upper, lower) {
            // Two lumas of 255 000 at most: 5 Y / 255 is 5 (sum / 2) / 255 000.
            line.append(Self.shades[min(4, (luma(top) + luma(bottom)) * 5 / 510_000)])
        }
        return line
    }

    // MARK: area averaging

    /// `columns` x `2 * rows` pixels as 0xRRGGBB, row by row.
    private func downscale(_ image: RGBImage) -> [UInt32] {
        let height = 2 * rows
        let xBoxes = Self.boxes(count: columns, across: image.width)
        var result: [UInt32] = []
        result.reserveCapacity(columns * height)
        var sums = [Int](repeating: 0, count: columns * 3)
        image.pixels.withUnsafeBufferPointer { pixels in
            for box in Self.boxes(count: height, across: image.height) {
                for index in sums.indices { sums[index] = 0 }
                for y in box {
                    let rowStart = y * image.width * 3
                    for (column, xBox) in xBoxes.enumerated() {
                        for x in xBox {
                            let offset = rowStart + x * 3
                            sums[column * 3] += Int(pixels[offset])
                            sums[column * 3 + 1] += Int(pixels[offset + 1])
                            sums[column * 3 + 2] += Int(pixels[offset + 2])
                        }
                    }
                }
                for (column, xBox) in xBoxes.enumerated() {
                    let count = box.count * xBox.count
                    func mean(_ channel: Int) -> UInt32 { UInt32((sums[column * 3 + channel] + count / 2) / count) }
                    result.append(mean(0) << 16 | mean(1) << 8 | mean(2))
                }
            }
        }
        return result
    }

    /// The source range of each of `count` boxes tiling `size` pixels; never empty, so when
    /// `size < count` neighbouring boxes share a pixel.
    private static func boxes(count: Int, across size: Int) -> [Range<Int>] {
        (0..<count).map { index in
            let start = index * size / count
            return start ..< max(start + 1, (index + 1) * size / count)
        }
    }
}
