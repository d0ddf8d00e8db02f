import PlantLeafCore
import Testing

@Suite struct TopKTests {
    @Test func picksHighestScoresBestFirst() {
        let top = Scores.topK([0.1, 0.5, 0.2, 0.9, 0.05], k: 3)
        #expect(top.map(\.index) == [3, 1, 2])
    }

    @Test func tiesKeepClassOrder() {
        let top = Scores.topK([0.2, 0.4, 0.4, 0.1, 0.4], k: 3)
        #expect(top.map(\.index) == [1, 2, 4])
        let allEqual = Scores.topK([Double](repeating: 0.25, count: 4), k: 2)
        #expect(allEqual.map(\.index) == [0, 1])
    }

    @Test func kLargerThanClassCountReturnsAll() {
        #expect(Scores.topK([0.3, 0.7], k: 5).map(\.index) == [1, 0])
    }
}
