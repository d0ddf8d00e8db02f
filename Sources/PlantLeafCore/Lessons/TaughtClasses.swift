/// What a grower taught, ready to be compared with a photo: each taught class's mean feature
/// vector and its own threshold, and the model's classes' means to weigh them against.
///
/// Features are the model's pooled vector (`Classification.features`) minus `centre` (the mean
/// over the sample leaves: raw cosines of that vector sit at 0.96–0.98 for everything, leaves or
/// not), scaled to length 1. A class's mean is the normalised mean of its lessons' vectors, each
/// lesson counted with its mirror image. The rule, chosen by measurement on the beans
/// (docs/teach.md): the nearest taught class wins when the photo is nearer it than every model
/// class's mean and its similarity reaches the class's threshold; two taught classes within
/// `closeMargin` of each other leave the answer uncertain.
public struct TaughtClasses: Sendable {
    /// One taught lesson's features: the photo's and its mirror image's.
    public struct Example: Sendable {
        public var className: String
        public var features: [Float]
        public var mirroredFeatures: [Float]?

        public init(className: String, features: [Float], mirroredFeatures: [Float]?) {
            self.className = className
            self.features = features
            self.mirroredFeatures = mirroredFeatures
        }
    }

    /// A taught class as the rule uses it.
    public struct TaughtClass: Sendable {
        public let name: String
        public let lessons: Int
        /// The normalised mean of its centred, normalised lessons.
        let mean: [Float]
        /// The least similarity a photo needs to be named this class.
        public let threshold: Double
    }

    /// The answer the lessons give a photo.
    public struct Match: Sendable, Equatable {
        public var className: String
        /// Cosine of the photo's centred features with the class's mean.
        public var similarity: Double
        public var threshold: Double
        /// The next taught class and its similarity, when there is one.
        public var runnerUp: String?
        public var runnerUpSimilarity: Double?
        /// The most similar of the model's own classes' means.
        public var nearestModelSimilarity: Double
        /// The photo is nearer this class than every model class and reaches its threshold.
        public var wins: Bool
        /// Another taught class is within `closeMargin` and also reaches its threshold.
        public var closeToAnother: Bool

        public init(className: String, similarity: Double, threshold: Double, runnerUp: String?, runnerUpSimilarity: Double?,
                    nearestModelSimilarity: Double, wins: Bool, closeToAnother: Bool) {
            self.className = className
            self.similarity = similarity
            self.threshold = threshold
            self.runnerUp = runnerUp
            self.runnerUpSimilarity = runnerUpSimilarity
            self.nearestModelSimilarity = nearestModelSimilarity
            self.wins = wins
            self.closeToAnother = closeToAnother
        }
    }

    /// A class with a single lesson has no leave-one-out to learn from: this cut, where centred
    /// cosines of bean field photos with their class's mean kept 98 % of them and few others.
    public static let singleLessonThreshold = 0.4
    /// Learned thresholds are kept within these: below, everything leafy passes; above, a class
    /// taught with near-identical photos would refuse its own crop's next photo.
    public static let thresholdRange = 0.25...0.6
    /// Where the picture checks found no leaf (or the generalist doubted one), the lessons need at
    /// least this similarity to overrule them: with the beans taught, 20 of 149 everyday photos
    /// (people, buildings, food) reached their class's learned threshold (up to 0.343), none this.
    public static let doubtedLeafSimilarity = 0.4
    /// Similarities this close between two taught classes are no answer.
    public static let closeMargin = 0.01

    public let classes: [TaughtClass]
    public let centre: [Float]
    /// The model the lessons were taught with (`Classifier.featureSignature`); nil when unknown.
    public var model: String?
    let modelMeans: [[Float]]

    /// - Parameters:
    ///   - examples: the lessons, every one with as many features as `centre`.
    ///   - centre: the mean feature vector of the sample leaves.
    ///   - modelClassMeans: the mean feature of each model class (raw, as the model gives them).
    public init(examples: [Example], centre: [Float], modelClassMeans: [[Float]]) {
        self.centre = centre
        modelMeans = modelClassMeans.map { TaughtClasses.normalised(TaughtClasses.subtract($0, centre)) }
        var byName: [String: [Example]] = [:]
        var order: [String] = []
        for example in examples where example.features.count == centre.count {
            if byName[example.className] == nil { order.append(example.className) }
            byName[example.className, default: []].append(example)
        }
        classes = order.map { name in
            let members = byName[name]!
            let vectors = members.map { TaughtClasses.vectors(of: $0, centre: centre) }
            return TaughtClass(name: name, lessons: members.count, mean: TaughtClasses.mean(vectors.flatMap { $0 }),
                               threshold: TaughtClasses.threshold(vectors))
        }
    }

    public var isEmpty: Bool { classes.isEmpty }

    /// The taught classes' answer for a photo's raw features; nil when nothing is taught or the
    /// features are not the lessons' length.
    public func match(_ features: [Float]) -> Match? {
        guard !classes.isEmpty, features.count == centre.count else { return nil }
        let photo = TaughtClasses.normalised(TaughtClasses.subtract(features, centre))
        var ranked = classes.map { (taught: $0, similarity: TaughtClasses.dot(photo, $0.mean)) }
        ranked.sort { $0.similarity > $1.similarity }
        let best = ranked[0]
        let nearestModel = modelMeans.map { TaughtClasses.dot(photo, $0) }.max() ?? -1
        let wins = best.similarity > nearestModel && best.similarity >= best.taught.threshold
        var close = false
        if ranked.count > 1 {
            let second = ranked[1]
            close = wins && best.similarity - second.similarity < TaughtClasses.closeMargin && second.similarity >= second.taught.threshold
        }
        return Match(className: best.taught.name, similarity: best.similarity, threshold: best.taught.threshold,
                     runnerUp: ranked.count > 1 ? ranked[1].taught.name : nil,
                     runnerUpSimilarity: ranked.count > 1 ? ranked[1].similarity : nil,
                     nearestModelSimilarity: nearestModel, wins: wins, closeToAnother: close)
    }

    /// How the lessons name each of their own photos when it is left out of its class's mean:
    /// (taught class, named class or nil when no taught class wins) for each lesson.
    public static func leaveOneOut(examples: [Example], centre: [Float], modelClassMeans: [[Float]]) -> [(taught: String, named: String?)] {
        var results: [(String, String?)] = []
        for index in examples.indices {
            var rest = examples
            rest.remove(at: index)
            let taught = TaughtClasses(examples: rest, centre: centre, modelClassMeans: modelClassMeans)
            let match = taught.match(examples[index].features)
            results.append((examples[index].className, match.flatMap { $0.wins ? $0.className : nil }))
        }
        return results
    }

    // MARK: - Vector arithmetic

    /// A lesson's centred, normalised vectors: the photo's and, when known, its mirror image's.
    static func vectors(of example: Example, centre: [Float]) -> [[Float]] {
        var vectors = [normalised(subtract(example.features, centre))]
        if let mirrored = example.mirroredFeatures, mirrored.count == centre.count { vectors.append(normalised(subtract(mirrored, centre))) }
        return vectors
    }

    /// Leave-one-out: each lesson's similarity to the mean of its class's other lessons; the
    /// threshold sits half a standard deviation below the least, within `thresholdRange`.
    static func threshold(_ lessons: [[[Float]]]) -> Double {
        guard lessons.count > 1 else { return singleLessonThreshold }
        // The others' mean is the class's sum less the lesson's own vectors, normalised: one pass
        // over the class instead of one per lesson.
        let width = lessons[0][0].count
        var total = [Float](repeating: 0, count: width)
        for vector in lessons.joined() where vector.count == width {
            for element in 0..<width { total[element] += vector[element] }
        }
        var similarities: [Double] = []
        for lesson in lessons {
            var others = total
            for vector in lesson where vector.count == width {
                for element in 0..<width { others[element] -= vector[element] }
            }
            similarities.append(dot(lesson[0], normalised(others)))
        }
        let average = similarities.reduce(0, +) / Double(similarities.count)
        let spread = (similarities.map { ($0 - average) * ($0 - average) }.reduce(0, +) / Double(similarities.count)).squareRoot()
        let learned = (similarities.min() ?? singleLessonThreshold) - spread / 2
        return min(max(learned, thresholdRange.lowerBound), thresholdRange.upperBound)
    }

    static func subtract(_ a: [Float], _ b: [Float]) -> [Float] {
        guard a.count == b.count else { return a }
        return (0..<a.count).map { a[$0] - b[$0] }
    }

    static func normalised(_ vector: [Float]) -> [Float] {
        var sum: Float = 0
        for value in vector { sum += value * value }
        let length = sum.squareRoot()
        return length > 0 ? vector.map { $0 / length } : vector
    }

    static func mean(_ vectors: [[Float]]) -> [Float] {
        guard let first = vectors.first else { return [] }
        var sum = [Float](repeating: 0, count: first.count)
        for vector in vectors where vector.count == sum.count {
            for index in 0..<sum.count { sum[index] += vector[index] }
        }
        return normalised(sum)
    }

    static func dot(_ a: [Float], _ b: [Float]) -> Double {
        var sum: Float = 0
        for index in 0..<min(a.count, b.count) { sum += a[index] * b[index] }
        return Double(sum)
    }
}
