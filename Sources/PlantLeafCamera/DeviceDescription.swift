import PlantLeafCore
/// What a capture device says it can do: its formats, the sizes of each and the frame rates of
/// each size. Built by `V4L2Device.describe`, or by hand (tests), and read by `FormatNegotiation`.
public struct DeviceDescription: Sendable, Equatable {
    public var path: String
    public var card: String
    public var driver: String
    public var busInfo: String
    public var formats: [FormatDescription]

    /// A device as V4L2 describes it (or as a test makes one up).
    public init(path: String, card: String, driver: String, busInfo: String = "", formats: [FormatDescription]) {
        self.path = path
        self.card = card
        self.driver = driver
        self.busInfo = busInfo
        self.formats = formats
    }
}

/// One pixel format a device offers, with the sizes it offers it in.
public struct FormatDescription: Sendable, Equatable {
    public var fourCC: UInt32
    public var name: String
    public var compressed: Bool
    public var sizes: FrameSizes

    /// A format by its V4L2 code and the driver's name for it.
    public init(fourCC: UInt32, name: String, compressed: Bool = false, sizes: FrameSizes) {
        self.fourCC = fourCC
        self.name = name
        self.compressed = compressed
        self.sizes = sizes
    }

    /// The format as PlantLeaf knows it, nil for formats it cannot convert.
    public var pixelFormat: FramePixelFormat? { FramePixelFormat(fourCC: fourCC) }
}

/// A discrete list of sizes, each with its frame intervals, or a stepwise range (with the
/// intervals known at one probed size, if any).
public enum FrameSizes: Sendable, Equatable {
    case discrete([SizeOption])
    case stepwise(minimum: FrameSize, maximum: FrameSize, step: FrameSize, probed: SizeOption?)
}

/// One frame size a format offers, with its frame intervals (empty when the driver lists none).
public struct SizeOption: Sendable, Equatable {
    public var size: FrameSize
    /// Every interval offered, or for a continuous range its fastest and slowest.
    public var intervals: [FrameInterval]

    /// A size and its intervals.
    public init(size: FrameSize, intervals: [FrameInterval]) {
        self.size = size
        self.intervals = intervals
    }

    public var fastestFramesPerSecond: Double { intervals.map(\.framesPerSecond).max() ?? 0 }
}

extension FrameSizes {
    /// The size this format delivers for `requested`: the exact size when offered; otherwise, for
    /// discrete sizes, the smallest that covers it (else the largest), and for a stepwise range
    /// the request clamped into the range and rounded down onto its steps.
    func fit(_ requested: FrameSize) -> SizeOption? {
        switch self {
        case .discrete(let options):
            if let exact = options.first(where: { $0.size == requested }) { return exact }
            let covering = options.filter { $0.size.width >= requested.width && $0.size.height >= requested.height }
            if let smallest = covering.min(by: { $0.size.area < $1.size.area }) { return smallest }
            return options.max { $0.size.area < $1.size.area }
        case .stepwise(let minimum, let maximum, let step, let probed):
            func place(_ value: Int, _ low: Int, _ high: Int, _ step: Int) -> Int {
                let clamped = min(max(value, low), high)
                return step > 1 ? low + (clamped - low) / step * step : clamped
            }
            let size = FrameSize(width: place(requested.width, minimum.width, maximum.width, step.width),
                                 height: place(requested.height, minimum.height, maximum.height, step.height))
            return SizeOption(size: size, intervals: probed?.size == size ? probed!.intervals : [])
        }
    }
}
