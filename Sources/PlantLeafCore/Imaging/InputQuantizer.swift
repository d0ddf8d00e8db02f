/// The real value the model is given for a pixel byte p: (p - mean) / std, per channel alike.
public struct Normalization: Sendable, Equatable {
    public var mean: Double
    public var std: Double

    /// Pixel bytes p become (p - mean) / std.
    public init(mean: Double, std: Double) {
        self.mean = mean
        self.std = std
    }

    /// p / 255, what the PlantVillage float model was trained on.
    public static let unitRange = Normalization(mean: 0, std: 255)
}

/// Turns RGB bytes into the input tensor's values, from the tensor's own type and quantisation.
public struct InputQuantizer: Sendable {
    enum Encoding: Sendable {
        /// int8 with scale 1/255 and zero point -128: q = p - 128 exactly, by wrapping subtraction.
        case int8Centered
        case int8Table([Int8])
        case uint8Table([UInt8])
        case float32Table([Float])
    }

    let encoding: Encoding
    public let normalization: Normalization

    /// The normalisation a tensor implies when the user gives none: for float inputs p / 255; for
    /// quantised inputs the byte range spread over the whole range the quantisation can represent
    /// (int8 scale 1/255 zero point -128 gives [0, 1]; uint8 scale 1/128 zero point 128 gives [-1, 1)),
    /// so the bytes pass through unchanged, as label_image feeds quantised models.
    public static func defaultNormalization(for tensor: TensorInfo) -> Normalization {
        guard let quantization = tensor.quantization, tensor.elementType != .float32 else { return .unitRange }
        let (lowest, highest) = tensor.elementType == .int8 ? (-128.0, 127.0) : (0.0, 255.0)
        let scale = Double(quantization.scale)
        let realLow = (lowest - Double(quantization.zeroPoint)) * scale
        let realHigh = (highest - Double(quantization.zeroPoint)) * scale
        let std = 255 / (realHigh - realLow)
        return Normalization(mean: -realLow * std, std: std)
    }

    /// `tensor` must be int8 or uint8 with per-tensor quantisation, or float32 (the
    /// Interpreter checks this when it loads a model). `allowsFastPath: false` forces the general
    /// table path, so the two can be compared.
    public init(tensor: TensorInfo, normalization: Normalization? = nil, allowsFastPath: Bool = true) {
        let normalization = normalization ?? InputQuantizer.defaultNormalization(for: tensor)
        self.normalization = normalization
        let realValues = (0..<256).map { (Double($0) - normalization.mean) / normalization.std }
        switch tensor.elementType {
        case .int8, .uint8:
            let quantization = tensor.quantization ?? Quantization(scale: 1, zeroPoint: 0)
            let codes = realValues.map { (Double(quantization.zeroPoint) + $0 / Double(quantization.scale)).rounded() }
            if tensor.elementType == .int8 {
                let isCentered = allowsFastPath && quantization.zeroPoint == -128 && abs(Double(quantization.scale) - 1.0 / 255) < 1e-6
                    && normalization == InputQuantizer.defaultNormalization(for: tensor)
                encoding = isCentered ? .int8Centered : .int8Table(codes.map { Int8(min(max($0, -128), 127)) })
            } else {
                encoding = .uint8Table(codes.map { UInt8(min(max($0, 0), 255)) })
            }
        default:
            encoding = .float32Table(realValues.map { Float($0) })
        }
    }

    /// Bytes one value takes in the tensor.
    public var bytesPerValue: Int {
        if case .float32Table = encoding { return MemoryLayout<Float>.size }
        return 1
    }

    /// Whether the exact `Int8(bitPattern: p) &- 128` fast path is in use.
    public var usesCenteredFastPath: Bool {
        if case .int8Centered = encoding { return true }
        return false
    }

    /// Writes one value per byte of `pixels` into `destination` (which holds at least
    /// pixels.count elements of the tensor's type).
    public func write(_ pixels: UnsafeBufferPointer<UInt8>, into destination: UnsafeMutableRawBufferPointer) {
        switch encoding {
        case .int8Centered:
            let output = destination.bindMemory(to: Int8.self)
            for index in pixels.indices { output[index] = Int8(bitPattern: pixels[index] &- 128) }
        case .int8Table(let table):
            let output = destination.bindMemory(to: Int8.self)
            table.withUnsafeBufferPointer { table in
                for index in pixels.indices { output[index] = table[Int(pixels[index])] }
            }
        case .uint8Table(let table):
            let output = destination.bindMemory(to: UInt8.self)
            table.withUnsafeBufferPointer { table in
                for index in pixels.indices { output[index] = table[Int(pixels[index])] }
            }
        case .float32Table(let table):
            let output = destination.bindMemory(to: Float.self)
            table.withUnsafeBufferPointer { table in
                for index in pixels.indices { output[index] = table[Int(pixels[index])] }
            }
        }
    }
}
