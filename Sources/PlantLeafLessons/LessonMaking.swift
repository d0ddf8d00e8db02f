import PlantLeafCore
import PlantLeafSupport

/// How a photo becomes a lesson and how a new lessons file gets its reference: what
/// `plantleaf teach add` and serve's corrections share, so a lesson taught either way is the same.
public enum LessonMaking {
    /// JPEG qualities tried for a lesson's picture, best first, until it fits the file's budget.
    public static let pictureQualities = [85, 75, 60, 45, 30]

    /// The lesson of the picture `classifier` classified last, which gave `result`: its features
    /// and its mirror image's (one more invoke), the model's input as a JPEG. `source` names the
    /// photo in the lesson and in a refusal.
    /// - Throws: `LessonsError.notALeaf` for a picture with no content, no green or unlike leaves
    ///   (such lessons teach noise), `.noFeatures`, `.pictureUnfit`.
    public static func lesson(className: String, source: String, result: Classification, classifier: Classifier) throws(LessonsError) -> LessonsFile.NewLesson {
        if result.verdict == .noPicture || result.reason == .noGreen || result.reason == .unlikeLeaves {
            throw .notALeaf(source: source, code: result.reason?.rawValue ?? result.verdict.rawValue)
        }
        guard let features = result.features, let picture = classifier.modelInput else { throw .noFeatures(source: source) }
        let mirrored = (try? classifier.classify(image: mirror(picture)))?.features
        var jpeg: [UInt8] = []
        for quality in pictureQualities {
            jpeg = (try? JPEGEncoder.encode(picture, quality: quality)) ?? []
            if !jpeg.isEmpty, jpeg.count <= LessonsFile.maximumPictureBytes { break }
        }
        guard !jpeg.isEmpty, jpeg.count <= LessonsFile.maximumPictureBytes else { throw .pictureUnfit(source: source) }
        return LessonsFile.NewLesson(className: className, features: features, mirroredFeatures: mirrored, picture: jpeg, source: source)
    }

    /// The picture mirrored left to right: a second view of the same leaf for its lesson.
    public static func mirror(_ image: RGBImage) -> RGBImage {
        var pixels = image.pixels
        for y in 0..<image.height {
            for x in 0..<image.width {
                let from = (y * image.width + image.width - 1 - x) * 3, to = (y * image.width + x) * 3
                pixels[to] = image.pixels[from]
                pixels[to + 1] = image.pixels[from + 1]
                pixels[to + 2] = image.pixels[from + 2]
            }
        }
        return RGBImage(width: image.width, height: image.height, pixels: pixels)
    }

    /// The centre (the sample leaves' mean feature) and each model class's mean over its sample
    /// leaves (the folder named as its label) in `folder`, measured once for a new lessons file.
    /// - Throws: `LessonsError.tooFewSamples` when fewer than 20 sample leaves can be read.
    public static func sampleReference(folder: String, classifier: Classifier) throws(LessonsError) -> LessonsFile.Reference {
        var byLabel: [String: [[Float]]] = [:]
        var all: [[Float]] = []
        for case .file(let photo) in ImageFiles.expand([PathName(folder)]) {
            guard let name = photo.string, let features = (try? classifier.classify(path: name))?.features else { continue }
            all.append(features)
            let parts = name.split(separator: "/")
            if parts.count >= 2 { byLabel[String(parts[parts.count - 2]), default: []].append(features) }
        }
        guard all.count >= 20 else { throw .tooFewSamples(count: all.count, folder: folder) }
        func mean(_ vectors: [[Float]]) -> [Float] {
            var sum = [Float](repeating: 0, count: vectors[0].count)
            for vector in vectors { for index in sum.indices { sum[index] += vector[index] } }
            return sum.map { $0 / Float(vectors.count) }
        }
        let means = classifier.labels.names.compactMap { byLabel[$0].map(mean) }
        return LessonsFile.Reference(centre: mean(all), modelClassMeans: means, model: classifier.featureSignature)
    }
}
