import PlantLeafSupport
import Testing

/// The one number formatter every output goes through.
@Suite struct DecimalTextTests {
    @Test func shortestDropsTrailingZerosAndKeepsTheSign() {
        #expect(DecimalText.shortest(3.910, decimals: 3) == "3.91")
        #expect(DecimalText.shortest(4.0004, decimals: 3) == "4")
        #expect(DecimalText.shortest(-0.5, decimals: 1) == "-0.5")
        #expect(DecimalText.shortest(-0.04, decimals: 1) == "0")
        #expect(DecimalText.shortest(.nan, decimals: 2) == nil)
        #expect(DecimalText.shortest(-.infinity, decimals: 2) == nil)
    }

    /// Fixed decimals keep the sign of values between -1 and 0 (a formatter that split the whole
    /// part off with integer division printed -0.5 as "0.5").
    @Test func fixedPadsToTheDecimalsAndKeepsTheSign() {
        #expect(DecimalText.fixed(-0.5, decimals: 1) == "-0.5")
        #expect(DecimalText.fixed(-0.25, decimals: 3) == "-0.250")
        #expect(DecimalText.fixed(-12, decimals: 2) == "-12.00")
        #expect(DecimalText.fixed(99.6, decimals: 1) == "99.6")
        #expect(DecimalText.fixed(0, decimals: 1) == "0.0")
        #expect(DecimalText.fixed(-0.04, decimals: 1) == "0.0")
        #expect(DecimalText.fixed(.infinity, decimals: 1) == "-")
    }

    @Test func jsonNumbersAreTheShortestFormOrNull() {
        #expect(JSONObject.number(-0.5, decimals: 3) == "-0.5")
        #expect(JSONObject.number(.nan, decimals: 3) == "null")
    }
}
