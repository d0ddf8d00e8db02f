import PlantLeafSupport

/// A gallery of photos as the generalist model sees them: each photo cut and resized as the leaf
/// model would see it (the centred square, bilinear), and the generalist's output for it. What
/// `plantleaf calibrate` makes a grower's leaf reference from, and counts passing photos with.
public struct LeafGallery: Sendable {
    /// One photo's reading.
    public struct Photo: Sendable {
        public var path: PathName
        /// The generalist's output, probabilities summing to 1.
        public var distribution: [Double]
        /// Its green share after the colour-cast balance: a photo without green is not a leaf.
        public var greenShare: Double
    }

    public private(set) var photos: [Photo] = []
    /// Inputs that gave no photo, each with the reason.
    public private(set) var failures: [(path: PathName, reason: String)] = []

    /// Reads every file of `entries` with `opinion`'s model, at `size` (the leaf model's input).
    /// - Throws: `RuntimeError` when LiteRT fails (a file that is no image is a failure, not thrown).
    public init(_ entries: [ImageFiles.Entry], opinion: SecondOpinion, size: FrameSize) throws(RuntimeError) {
        let decoder = ImageDecoder(minimumSize: (size.width, size.height))
        let resizer = RowResizer(width: size.width, height: size.height, crop: .center)
        for entry in entries {
            switch entry {
            case .problem(let path, let reason):
                failures.append((path, reason.reason))
            case .file(let path):
                guard let name = path.string else {
                    failures.append((path, "the name is not UTF-8: rename the file"))
                    continue
                }
                let image: RGBImage
                do {
                    _ = try decoder.decode(try FileReader.readAll(path: name), into: resizer)
                    image = resizer.finish()
                } catch let error as FileReadError {
                    failures.append((path, error.reason))
                    continue
                } catch {
                    failures.append((path, "\(error)"))
                    continue
                }
                let distribution = try opinion.distribution(of: image).distribution
                let greenShare = WhiteBalance.greenShare(of: image, gains: WhiteBalance.gains(of: image))
                photos.append(Photo(path: path, distribution: distribution, greenShare: greenShare))
            }
        }
    }

    /// How many photos `reference` finds clearly leaf-like: at least `cut` (the policy's
    /// `clearlyLeafFrom`).
    public func passing(_ reference: LeafReference, from cut: Double) -> Int {
        photos.count { reference.likeness($0.distribution) >= cut }
    }
}
