import PlantLeafCamera
import PlantLeafCommandLine
import PlantLeafCore
import Testing

/// The pixel-format table is where the camera's formats are known: the listing, the help and
/// negotiation follow it.
@Suite struct PixelFormatTableTests {
    /// Every row once, by format and by V4L2 code.
    @Test func everyFormatHasOneRow() {
        let table = FramePixelFormat.table
        #expect(Set(table.map(\.format)) == Set(FramePixelFormat.allCases) && table.count == FramePixelFormat.allCases.count)
        #expect(Set(table.map(\.fourCC)).count == table.count)
        for row in table { #expect(FramePixelFormat(fourCC: row.fourCC) == row.format && row.format.facts.fourCC == row.fourCC) }
    }

    /// --list names the --pixel-format that picks each format the table holds, in the row of that
    /// format, and marks the formats it does not hold.
    @Test func listingFollowsTheTable() {
        let sizes = FrameSizes.discrete([SizeOption(size: FrameSize(width: 640, height: 480), intervals: [])])
        let formats = FramePixelFormat.table.map { FormatDescription(fourCC: $0.fourCC, name: $0.displayName, compressed: $0.compressed, sizes: sizes) }
            + [FormatDescription(fourCC: FourCC.code("UYVY"), name: "UYVY 4:2:2", sizes: sizes)]
        let listing = CameraOutput.deviceListing(path: "/dev/video0", DeviceDescription(path: "/dev/video0", card: "card", driver: "d", formats: formats))
        let formatLines = listing.split(separator: "\n").map(String.init).filter { $0.hasPrefix("  ") && !$0.hasPrefix("    ") }
        #expect(formatLines == FramePixelFormat.table.map { row in
            "  \(FourCC.text(row.fourCC)) \(row.displayName)\(row.compressed ? " (compressed)" : ""); --pixel-format \(row.format.rawValue)"
        } + ["  UYVY UYVY 4:2:2, not readable by PlantLeaf"])
    }

    /// camera --help offers auto and the table's names, in the table's order.
    @Test func helpOffersTheTablesNames() throws {
        let entry = try #require(CameraCommandOptions.optionTable.first { $0.name == "--pixel-format" })
        guard case .lines(let lines) = entry.help else {
            Issue.record("--pixel-format has no lines of its own")
            return
        }
        let names = (["auto"] + FramePixelFormat.table.map(\.format.rawValue))
        #expect(lines[0].hasPrefix(names.dropLast().joined(separator: ", ") + " or " + names.last!))
    }
}
