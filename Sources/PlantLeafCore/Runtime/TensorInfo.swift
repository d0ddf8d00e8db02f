import CLiteRt

/// The element types PlantLeaf can feed or read. Values are LiteRT's.
public enum ElementType: Int32, Sendable, CustomStringConvertible {
    case float32 = 1
    case int32 = 2
    case uint8 = 3
    case int64 = 4
    case bool = 6
    case int16 = 7
    case int8 = 9
    case float16 = 10

    public var byteWidth: Int {
        switch self {
        case .uint8, .int8, .bool: return 1
        case .int16, .float16: return 2
        case .float32, .int32: return 4
        case .int64: return 8
        }
    }

    public var description: String {
        switch self {
        case .float32: return "float32"
        case .int32: return "int32"
        case .uint8: return "uint8"
        case .int64: return "int64"
        case .bool: return "bool"
        case .int16: return "int16"
        case .int8: return "int8"
        case .float16: return "float16"
        }
    }
}

/// Per-tensor affine quantisation: real = (q - zeroPoint) * scale.
public struct Quantization: Sendable, Equatable {
    public var scale: Float
    public var zeroPoint: Int

    /// real = scale x (q - zeroPoint).
    public init(scale: Float, zeroPoint: Int) {
        self.scale = scale
        self.zeroPoint = zeroPoint
    }

    /// Why these parameters cannot describe a tensor of `elementType`, or nil. A scale of 0,
    /// NaN or infinity turns every value into NaN or infinity (a trap when quantising the
    /// input, meaningless scores from the output); a zero point outside the type's range is
    /// what no converter writes.
    public func problem(for elementType: ElementType) -> String? {
        guard scale.isFinite, scale > 0 else { return "has quantisation scale \(scale); a positive finite scale is needed" }
        let range = elementType == .int8 ? -128...127 : 0...255
        guard range.contains(zeroPoint) else {
            return "has quantisation zero point \(zeroPoint), outside \(elementType)'s \(range.lowerBound)...\(range.upperBound)"
        }
        return nil
    }
}

/// A model tensor as the model describes it, with the shape the compiled model resolved.
public struct TensorInfo: Sendable {
    public var name: String
    public var elementType: ElementType
    public var shape: [Int]
    /// nil for float tensors and tensors without per-tensor parameters.
    public var quantization: Quantization?

    public var elementCount: Int { shape.reduce(1, *) }
    public var byteCount: Int { elementCount * elementType.byteWidth }

    /// A tensor as LiteRT describes it (or as a test makes one up).
    public init(name: String, elementType: ElementType, shape: [Int], quantization: Quantization?) {
        self.name = name
        self.elementType = elementType
        self.shape = shape
        self.quantization = quantization
    }
}
