import PlantLeafCore
@testable import PlantLeafServe
import Testing

/// Who may post a correction (`Corrections.refusal`) and which name it gives
/// (`Corrections.className`): the rules the route tests reach through HTTP, case by case.
@Suite struct CorrectionRuleTests {
    static func corrections(allowed: Bool) -> Corrections {
        Corrections(lessonsPath: "/nonexistent/lessons.sqlite", live: LiveLessons(nil), sampleFolder: nil, allowed: allowed, labels: ["Tomato___healthy"])
    }

    static func request(_ headers: [String: String]) -> HTTPRequest {
        HTTPRequest(method: "POST", path: "/correct", headers: ["host": "192.168.1.40:8080"].merging(headers) { $1 })
    }

    @Test func onlyThisServersOwnPageMayCorrect() {
        let corrections = Self.corrections(allowed: true)
        // A program (no browser headers), the page itself, an address typed in the bar.
        for headers in [[:], ["sec-fetch-site": "same-origin", "origin": "http://192.168.1.40:8080"], ["sec-fetch-site": "none"],
                        ["origin": "https://192.168.1.40:8080"]] {
            #expect(corrections.refusal(Self.request(headers)) == nil, "\(headers)")
        }
        // Another site, another port of the same host (same-site, not same-origin), a sandboxed frame.
        for headers in [["sec-fetch-site": "cross-site"], ["sec-fetch-site": "same-site"], ["origin": "http://192.168.1.40:9090"],
                        ["origin": "http://attacker.example"], ["origin": "null"], ["origin": "http://192.168.1.40:8080.attacker.example"]] {
            #expect(corrections.refusal(Self.request(headers))?.key == "page.correct.refused.other-site", "\(headers)")
        }
        #expect(Self.corrections(allowed: false).refusal(Self.request([:]))?.key == "page.correct.refused.open")
    }

    @Test func theTypedNameComesFirstWithinItsBudget() throws {
        func name(_ fields: [String: String]) -> Result<String, CorrectionProblem> {
            Corrections.className(in: fields.mapValues { FormField(bytes: Array($0.utf8), fileName: nil) })
        }
        #expect(try name(["class": "Tomato___healthy", "new": "  خيار — البياض الزغبي "]).get() == "خيار — البياض الزغبي")
        #expect(try name(["class": "Tomato___healthy", "new": " "]).get() == "Tomato___healthy")
        #expect(throws: CorrectionProblem.self) { try name(["class": ""]).get() }
        #expect(throws: CorrectionProblem.self) { try name(["new": "Cucumber\nmildew"]).get() }
        #expect(throws: CorrectionProblem.self) { try name(["new": String(repeating: "x", count: 10_000)]).get() }
        #expect(throws: CorrectionProblem.self) { try Corrections.className(in: ["new": FormField(bytes: [0xFF, 0xFE], fileName: nil)]).get() }
    }
}
