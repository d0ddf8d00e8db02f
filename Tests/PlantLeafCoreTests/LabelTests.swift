import Glibc
import PlantLeafCore
import PlantLeafSupport
import PlantLeafTestSupport
import Testing

@Suite struct LabelTests {
    @Test func parsingSkipsCommentsBlankLinesAndCarriageReturns() {
        let labels = Labels(parsing: "# classes\r\nApple___healthy\r\n\n  Tomato___Early_blight  \n#end\n")
        #expect(labels.names == ["Apple___healthy", "Tomato___Early_blight"])
    }

    @Test func displayNamesReadLikeEnglish() {
        #expect(Labels.displayName("Tomato___Early_blight") == "Tomato — Early blight")
        #expect(Labels.displayName("Pepper,_bell___healthy") == "Pepper, bell — healthy")
        #expect(Labels.displayName("Corn_(maize)___Cercospora_leaf_spot Gray_leaf_spot") == "Corn (maize) — Cercospora leaf spot Gray leaf spot")
        #expect(Labels.displayName("Egyptian cat") == "Egyptian cat")
    }

    @Test func projectLabelFileMatchesTheModelOrder() throws {
        let labels = try Labels.load(path: TestPaths.labels)
        #expect(labels.count == 38)
        #expect(labels[0] == "Apple___Apple_scab" && labels[37] == "Tomato___healthy")
        #expect(throws: LabelError.countMismatch(path: "x", labels: 38, classes: 1001)) {
            try labels.check(againstClassCount: 1001, path: "x")
        }
    }

    @Test func missingLabelFileIsAClearError() {
        #expect(throws: LabelError.unreadable(path: "/nonexistent/labels.txt", reason: .system(SystemError(ENOENT)))) {
            try Labels.load(path: "/nonexistent/labels.txt")
        }
    }
}
