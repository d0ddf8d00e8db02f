import PlantLeafCore
import PlantLeafTestSupport
import Testing

@Suite struct InputQuantizerTests {
    let allBytes = (0...255).map { UInt8($0) }
    let plantVillageInput = TensorInfo(name: "input", elementType: .int8, shape: [1, 224, 224, 3],
                                       quantization: Quantization(scale: 1.0 / 255, zeroPoint: -128))

    @Test func int8FastPathIsBytesMinus128() {
        let quantizer = InputQuantizer(tensor: plantVillageInput)
        #expect(quantizer.usesCenteredFastPath)
        #expect(quantizer.values(for: allBytes, as: .int8) == allBytes.map { Double(Int($0) - 128) })
    }

    @Test func int8FastPathEqualsGeneralPath() {
        let general = InputQuantizer(tensor: plantVillageInput, allowsFastPath: false)
        #expect(!general.usesCenteredFastPath)
        #expect(general.values(for: allBytes, as: .int8) == InputQuantizer(tensor: plantVillageInput).values(for: allBytes, as: .int8))
    }

    @Test func int8OtherParametersUseTheirOwnScale() {
        // Scale 2/255, zero point 0 represents [-256/255, 254/255]; the default normalisation spreads
        // the bytes over it, so q = round(p/2 - 128 + ...) stays monotonic and in range.
        let tensor = TensorInfo(name: "input", elementType: .int8, shape: [1, 8, 8, 3],
                                quantization: Quantization(scale: 2.0 / 255, zeroPoint: 0))
        let values = InputQuantizer(tensor: tensor).values(for: allBytes, as: .int8)
        #expect(values.first == -128 && values.last == 127)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func explicitNormalisationIsQuantisedAndClamped() {
        // (p - 0) / 255 at scale 1/510, zero point 0: q = 2p, clamped to the int8 maximum.
        let tensor = TensorInfo(name: "input", elementType: .int8, shape: [1, 8, 8, 3],
                                quantization: Quantization(scale: 1.0 / 510, zeroPoint: 0))
        let values = InputQuantizer(tensor: tensor, normalization: .unitRange).values(for: allBytes, as: .int8)
        #expect(values == allBytes.map { Double(min(2 * Int($0), 127)) })
    }

    @Test func uint8MobileNetInputPassesBytesThrough() {
        // mobilenet_v2_1.0_224_quant: scale 1/128, zero point 128 represents [-1, 1).
        let tensor = TensorInfo(name: "input", elementType: .uint8, shape: [1, 224, 224, 3],
                                quantization: Quantization(scale: 0.0078125, zeroPoint: 128))
        #expect(InputQuantizer(tensor: tensor).values(for: allBytes, as: .uint8) == allBytes.map { Double($0) })
    }

    @Test func float32IsDividedBy255UnlessMeanAndStdAreGiven() {
        let tensor = TensorInfo(name: "input", elementType: .float32, shape: [1, 224, 224, 3], quantization: nil)
        let unit = InputQuantizer(tensor: tensor).values(for: allBytes, as: .float32)
        #expect(zip(unit, allBytes).allSatisfy { abs($0 - Double($1) / 255) < 1e-6 })
        let centred = InputQuantizer(tensor: tensor, normalization: Normalization(mean: 127.5, std: 127.5)).values(for: [0, 255], as: .float32)
        #expect(abs(centred[0] + 1) < 1e-6 && abs(centred[1] - 1) < 1e-6)
    }
}
