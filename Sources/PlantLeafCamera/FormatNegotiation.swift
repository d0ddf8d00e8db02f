import PlantLeafCore
/// What the user asked for on the command line.
public struct CaptureRequest: Sendable, Equatable {
    /// nil: auto.
    public var format: FramePixelFormat?
    public var size: FrameSize
    public var framesPerSecond: Double?

    /// What to ask the camera for: a format (nil: the best at the size), a size and a rate (nil: the fastest).
    public init(format: FramePixelFormat? = nil, size: FrameSize = FrameSize(width: 640, height: 480), framesPerSecond: Double? = nil) {
        self.format = format
        self.size = size
        self.framesPerSecond = framesPerSecond
    }
}

/// The format, size and frame interval to ask the driver for, and why they were chosen.
public struct CapturePlan: Sendable, Equatable {
    public var format: FramePixelFormat
    public var size: FrameSize
    /// nil when the device lists no rates for this size (the driver's default rate is kept).
    public var interval: FrameInterval?
    public var reason: CaptureChoice

    package init(format: FramePixelFormat, size: FrameSize, interval: FrameInterval?, reason: CaptureChoice) {
        (self.format, self.size, self.interval, self.reason) = (format, size, interval, reason)
    }
}

/// Picks the format, size and rate to capture from what a device offers.
public enum FormatNegotiation {
    /// The format order when two give the same size and rate: the pixel-format table's.
    static let preference: [FramePixelFormat] = FramePixelFormat.table.map(\.format)

    /// Chooses among the device's formats PlantLeaf can read: the requested one, or with auto the
    /// one that delivers the requested size exactly at the highest frame rate.
    ///
    /// - Throws: `CameraError.noSupportedFormat` when the device offers no readable format (or
    ///   not the one requested).
    public static func choose(_ request: CaptureRequest, from device: DeviceDescription) throws(CameraError) -> CapturePlan {
        let readable = device.formats.filter { format in
            guard let pixelFormat = format.pixelFormat else { return false }
            return request.format == nil || request.format == pixelFormat
        }
        let candidates = readable.compactMap { format -> (FramePixelFormat, SizeOption)? in
            guard let option = format.sizes.fit(request.size) else { return nil }
            return (format.pixelFormat!, option)
        }
        guard !candidates.isEmpty else {
            let offered = device.formats.map { FourCC.text($0.fourCC) }
            throw .noSupportedFormat(path: device.path, requested: request.format, offered: offered)
        }
        let ranked = candidates.sorted { first, second in
            let (firstExact, secondExact) = (first.1.size == request.size, second.1.size == request.size)
            if firstExact != secondExact { return firstExact }
            if first.1.fastestFramesPerSecond != second.1.fastestFramesPerSecond {
                return first.1.fastestFramesPerSecond > second.1.fastestFramesPerSecond
            }
            return preference.firstIndex(of: first.0)! < preference.firstIndex(of: second.0)!
        }
        let (format, option) = ranked[0]
        let interval = chooseInterval(option.intervals, framesPerSecond: request.framesPerSecond)
        let others = request.format != nil ? []
            : ranked.dropFirst().map { CaptureChoice.Offer(format: $0.0, size: $0.1.size, framesPerSecond: $0.1.fastestFramesPerSecond) }
        let reason = CaptureChoice(formatRequested: request.format != nil, sizeNotOffered: option.size != request.size ? request.size : nil,
                                   alsoOffered: others)
        return CapturePlan(format: format, size: option.size, interval: interval, reason: reason)
    }

    /// The listed interval of the requested rate, else the request itself (the driver rounds it
    /// to what it can do); without a request the fastest listed.
    static func chooseInterval(_ intervals: [FrameInterval], framesPerSecond: Double?) -> FrameInterval? {
        guard let framesPerSecond else { return intervals.max { $0.framesPerSecond < $1.framesPerSecond } }
        if let listed = intervals.first(where: { abs($0.framesPerSecond - framesPerSecond) < 0.01 }) { return listed }
        return FrameInterval(numerator: 1000, denominator: Int((framesPerSecond * 1000).rounded()))
    }
}
