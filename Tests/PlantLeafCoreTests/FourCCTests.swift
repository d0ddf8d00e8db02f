import PlantLeafCore
import Testing

@Suite struct FourCCTests {
    @Test func codesAndNames() {
        #expect(FourCC.code("YUYV") == 0x5659_5559)
        #expect(FourCC.text(FourCC.code("MJPG")) == "MJPG")
        #expect(FourCC.text(FourCC.code("Y16 ")) == "Y16")
        #expect(FourCC.text(FourCC.code("Y16 ") | 1 << 31) == "Y16-BE")
        #expect(FramePixelFormat(fourCC: FourCC.code("NV12")) == .nv12)
        #expect(FramePixelFormat(fourCC: FourCC.code("H264")) == nil)
    }
}
