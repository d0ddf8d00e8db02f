import PlantLeafSupport

/// What leaf photos look like to the generalist model: the mean of its output distributions over
/// a gallery of leaf photos. A picture whose distribution is far from it is not a leaf photo of
/// the kind the leaf model learned, whatever the leaf model says of it (`SecondOpinion`).
///
/// Stored as text, so a grower can see what it is and a damaged copy is found, not used:
///
///     plantleaf-leaf-reference 3
///     photos 76
///     classes 1001
///     input 128           the side of the square picture the generalist was run on
///     generalist mobilenet_v1_0.25_128_quant.tflite 525598    the model's file name and size
///     0.000012
///     …                   one line per class, the mean probability
///     sha256 <hex>        of every line above, each with its newline
public struct LeafReference: Sendable, Equatable {
    /// The mean probability of each of the generalist model's classes; sums to 1.
    public let distribution: [Double]
    /// How many photos the mean was taken over.
    public let photoCount: Int
    /// The side of the square picture the generalist model was run on: its distributions differ
    /// with the size, so a reference holds for one size only.
    public let inputSide: Int
    /// The generalist model it was made with (`SecondOpinion.generalist`: its file name and size):
    /// another model's outputs are not comparable with it, even with the same classes.
    public let generalist: String

    /// The format's first line.
    static let header = "plantleaf-leaf-reference 3"
    /// The earlier formats': the first without an input line (every such reference was made at
    /// 224×224), both without a generalist line, since every such reference was made with the
    /// generalist of their time, known by its name only.
    static let firstHeader = "plantleaf-leaf-reference 1"
    static let secondHeader = "plantleaf-leaf-reference 2"
    static let firstFormatInputSide = 224
    /// How far from 1 the sum of a reference's values may be: its file rounds each to nine
    /// decimals, and a mean of the generalist's outputs sums to 1 within float rounding.
    static let maximumSumError = 1e-3
    static let earlierFormatsGeneralist = "mobilenet_v2_1.0_224_quant.tflite"
    /// Fewer photos than this make a reference of one grower's few leaves, not of their crop.
    public static let minimumPhotos = 20

    /// The mean of `distributions` (each the generalist's output for one leaf photo, run at
    /// `inputSide`×`inputSide` by the model `generalist` names).
    /// - Throws: `LeafReferenceError.tooFewPhotos` below `minimumPhotos`.
    public init(meanOf distributions: [[Double]], inputSide: Int, generalist: String) throws(LeafReferenceError) {
        guard distributions.count >= Self.minimumPhotos, let classes = distributions.first?.count else {
            throw .tooFewPhotos(count: distributions.count, minimum: Self.minimumPhotos)
        }
        var sum = [Double](repeating: 0, count: classes)
        for distribution in distributions {
            for index in 0..<min(classes, distribution.count) { sum[index] += distribution[index] }
        }
        let total = sum.reduce(0, +)
        self.init(distribution: sum.map { total > 0 ? $0 / total : 1 / Double(classes) }, photoCount: distributions.count,
                  inputSide: inputSide, generalist: generalist)
    }

    init(distribution: [Double], photoCount: Int, inputSide: Int, generalist: String) {
        self.distribution = distribution
        self.photoCount = photoCount
        self.inputSide = inputSide
        self.generalist = generalist
    }

    /// The Bhattacharyya coefficient Σ √(pᵢ mᵢ) of a distribution `p` against this reference:
    /// 1 for the same distribution, 0 for distributions with no class in common. `p` has as
    /// many classes as the reference.
    public func likeness(_ p: [Double]) -> Double {
        var sum = 0.0
        for index in 0..<min(p.count, distribution.count) { sum += (max(p[index], 0) * distribution[index]).squareRoot() }
        return min(sum, 1)
    }

    /// The file's text (format above), each probability to nine decimals: the rounding moves a
    /// likeness by less than 10⁻³.
    public var text: String {
        var body = Self.header + "\n" + "photos \(photoCount)\n" + "classes \(distribution.count)\n" + "input \(inputSide)\n" + "generalist \(generalist)\n"
        for value in distribution { body += DecimalText.shortest(value, decimals: 9).map { $0 + "\n" } ?? "0\n" }
        return body + "sha256 " + SHA256.hex(of: Array(body.utf8)) + "\n"
    }

    /// Reads a reference from the file at `path`, which must hold `expectedClasses` classes (the
    /// generalist model's output count) and have been made at `inputSide` (the side it runs at)
    /// by the model `generalist` names.
    /// - Throws: `LeafReferenceError` naming the file and what is wrong with it.
    public static func load(path: String, expectedClasses: Int, inputSide: Int, generalist: String) throws(LeafReferenceError) -> LeafReference {
        let bytes: [UInt8]
        do {
            bytes = try FileReader.readAll(path: path, maximumSize: 1 << 20)
        } catch {
            throw .unreadable(path: path, reason: error)
        }
        return try parse(bytes, path: path, expectedClasses: expectedClasses, inputSide: inputSide, generalist: generalist)
    }

    /// Reads a reference from its file's bytes; `path` names it in errors.
    /// - Throws: `LeafReferenceError` naming what is wrong.
    public static func parse(_ bytes: [UInt8], path: String, expectedClasses: Int, inputSide: Int,
                             generalist: String) throws(LeafReferenceError) -> LeafReference {
        let text = String(decoding: bytes, as: UTF8.self)
        let firstFormat = text.hasPrefix(firstHeader + "\n"), secondFormat = text.hasPrefix(secondHeader + "\n")
        guard firstFormat || secondFormat || text.hasPrefix(header + "\n") else { throw .notAReference(path: path) }
        guard text.hasSuffix("\n"), let checksumLine = text.dropLast().lastIndex(of: "\n") else {
            throw .damaged(path: path, problem: "it does not end with its checksum line")
        }
        let body = text[...checksumLine], checksum = text[text.index(after: checksumLine)...].dropLast()
        guard checksum == "sha256 " + SHA256.hex(of: Array(body.utf8)) else {
            throw .damaged(path: path, problem: "its checksum does not match its contents")
        }
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        guard lines.count >= 3, lines[1].hasPrefix("photos "), let photos = Int(lines[1].dropFirst(7)), photos >= minimumPhotos,
              lines[2].hasPrefix("classes "), let classes = Int(lines[2].dropFirst(8)) else {
            throw .damaged(path: path, problem: "its photos and classes lines are missing or wrong")
        }
        guard classes == expectedClasses else { throw .wrongLength(path: path, classes: classes, expected: expectedClasses) }
        var madeAt = firstFormatInputSide
        if !firstFormat {
            guard lines.count >= 4, lines[3].hasPrefix("input "), let side = Int(lines[3].dropFirst(6)) else {
                throw .damaged(path: path, problem: "its input line is missing or wrong")
            }
            madeAt = side
        }
        var madeWith = earlierFormatsGeneralist
        if !firstFormat && !secondFormat {
            guard lines.count >= 5, lines[4].hasPrefix("generalist "), lines[4].count > 11 else {
                throw .damaged(path: path, problem: "its generalist line is missing or wrong")
            }
            madeWith = String(lines[4].dropFirst(11))
        }
        // The earlier formats know the model by its name alone.
        let sameGeneralist = madeWith == generalist || ((firstFormat || secondFormat) && generalist.hasPrefix(madeWith + " "))
        guard sameGeneralist else { throw .wrongGeneralist(path: path, madeWith: madeWith, expected: generalist) }
        guard madeAt == inputSide else { throw .wrongInputSide(path: path, side: madeAt, expected: inputSide) }
        let header = firstFormat ? 3 : secondFormat ? 4 : 5
        let values = lines.dropFirst(header).compactMap(Double.init)
        guard values.count == classes, lines.count == classes + header, values.allSatisfy({ $0 >= 0 && $0 <= 1 }) else {
            throw .damaged(path: path, problem: "it holds \(lines.count - header) values for \(classes) classes")
        }
        // A mean of probability distributions sums to 1 (each value rounded to nine decimals moves
        // the sum by at most 5·10⁻¹⁰). Values that do not make a distribution (a file of ones
        // with a right checksum) would find every picture leaf-like, and so switch the check off.
        let sum = values.reduce(0, +)
        guard abs(sum - 1) <= maximumSumError else {
            throw .damaged(path: path, problem: "its values sum to \(DecimalText.shortest(sum, decimals: 6) ?? String(sum)) where a distribution's sum to 1")
        }
        return LeafReference(distribution: values, photoCount: photos, inputSide: madeAt, generalist: madeWith)
    }
}
