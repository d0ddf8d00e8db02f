import PlantLeafTestSupport
import Testing

/// The diff HelpTextTests shows when an output differs from its recorded file: hunks as GNU
/// `diff -u` prints them for the same texts (the expected strings are its output).
@Suite struct UnifiedDiffTests {
    @Test func equalTextsHaveNoDiff() {
        #expect(unifiedDiff(from: "a\nb\n", to: "a\nb\n", oldName: "old", newName: "new") == "")
    }

    @Test func changesAreShownInHunksWithThreeLinesOfContext() {
        let old = (1...20).map { "\($0)\n" }.joined()
        let new = old.replacingOccurrences(of: "\n5\n", with: "\nfive\n").replacingOccurrences(of: "\n17\n", with: "\n\n")
            .replacingOccurrences(of: "\n19\n", with: "\n") + "extra\n"
        #expect(unifiedDiff(from: old, to: new, oldName: "old", newName: "new") == """
            --- old
            +++ new
            @@ -2,7 +2,7 @@
             2
             3
             4
            -5
            +five
             6
             7
             8
            @@ -14,7 +14,7 @@
             14
             15
             16
            -17
            +
             18
            -19
             20
            +extra
            """)
    }

    @Test func linesAddedToAnEndOrToNothing() {
        #expect(unifiedDiff(from: "a\nb\n", to: "a\nb\nc\n", oldName: "old", newName: "new") == "--- old\n+++ new\n@@ -1,2 +1,3 @@\n a\n b\n+c")
        #expect(unifiedDiff(from: "", to: "a\nb\nc\n", oldName: "old", newName: "new") == "--- old\n+++ new\n@@ -0,0 +1,3 @@\n+a\n+b\n+c")
    }

    @Test func aMissingFinalNewlineShows() {
        #expect(unifiedDiff(from: "a\nb\n", to: "a\nb", oldName: "old", newName: "new")
                == "--- old\n+++ new\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file")
    }

    @Test func longDiffsAreCut() {
        let old = (1...100).map { "line \($0)\n" }.joined()
        let diff = unifiedDiff(from: old, to: old.uppercased(), oldName: "old", newName: "new", limit: 10)
        // 2 header lines, the hunk's, 100 removed and 100 added: 203, of which 10 are shown.
        #expect(diff == "--- old\n+++ new\n@@ -1,100 +1,100 @@\n" + (1...7).map { "-line \($0)\n" }.joined() + "… (193 more lines of diff)")
    }
}
