import PlantLeafCore
import PlantLeafCamera
import PlantLeafReport
import Testing

@Suite struct YCbCrTests {
    @Test func limitedRangeEndpointsAndPrimaries() {
        expectClose(YCbCr.rgb(y: 16, cb: 128, cr: 128), (0, 0, 0), tolerance: 0)
        expectClose(YCbCr.rgb(y: 235, cb: 128, cr: 128), (255, 255, 255), tolerance: 0)
        expectClose(YCbCr.rgb(y: 126, cb: 128, cr: 128), (128, 128, 128), tolerance: 0)
        // BT.601 limited-range codes of pure red, green and blue.
        expectClose(YCbCr.rgb(y: 81, cb: 90, cr: 240), (255, 0, 0))
        expectClose(YCbCr.rgb(y: 145, cb: 54, cr: 34), (0, 255, 0))
        expectClose(YCbCr.rgb(y: 41, cb: 240, cr: 110), (0, 0, 255))
        #expect(YCbCr.ycbcr(red: 255, green: 0, blue: 0) == (82, 90, 240))
    }

    @Test func roundTripStaysWithinTwoLevels() {
        for red in stride(from: 0, through: 255, by: 51) {
            for green in stride(from: 0, through: 255, by: 51) {
                for blue in stride(from: 0, through: 255, by: 51) {
                    let (y, cb, cr) = YCbCr.ycbcr(red: UInt8(red), green: UInt8(green), blue: UInt8(blue))
                    expectClose(YCbCr.rgb(y: y, cb: cb, cr: cr), (red, green, blue))
                }
            }
        }
    }
}
