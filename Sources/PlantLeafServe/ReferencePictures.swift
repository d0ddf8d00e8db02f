import PlantLeafCore
import PlantLeafSupport

/// The photos a result page shows beside a diagnosis, to compare the leaf with: the sample
/// leaves installed with PlantLeaf (samples/plantvillage in a checkout, one folder per class,
/// PlantVillage photos under CC BY-SA 3.0), the first `perClass` of each class's folder. The
/// folder is listed once at start; a request names a class and a number, never a path, so only
/// the files found then are ever read, each within `maximumBytes`.
package struct ReferencePictures: Sendable {
    /// How many pictures of a class the page shows.
    package static let perClass = 2
    /// The largest picture served: the samples are 256 × 256 JPEGs of some 20 KiB.
    package static let maximumBytes = 1 << 20

    /// Where the sample leaves come from and under which licence, as the credit under them
    /// names them (left to right, isolated, in every language).
    package static let credit = ["collection": "PlantVillage", "licence": "CC BY-SA 3.0"]

    private let files: [String: [PathName]]

    /// The pictures under `folder` (nil, or a folder that cannot be listed: none).
    package init(folder: String?) {
        var files: [String: [PathName]] = [:]
        if let folder {
            for case .file(let path) in ImageFiles.expand([PathName(folder)]) {
                // The class is the name of the folder the file is in.
                let components = path.bytes.split(separator: UInt8(ascii: "/"))
                guard components.count >= 2, let label = String(validating: components[components.count - 2], as: UTF8.self) else { continue }
                if files[label, default: []].count < ReferencePictures.perClass { files[label, default: []].append(path) }
            }
        }
        self.files = files.filter { $0.value.count == ReferencePictures.perClass }
    }

    /// The classes with their pictures, sorted.
    package var classes: [String] { files.keys.sorted() }

    /// The `number`th picture of `label` (0 or 1), as its file's bytes with their media type;
    /// nil when there is none, or the file is gone or over the limit.
    package func picture(of label: String, number: Int) -> (bytes: [UInt8], mediaType: String)? {
        guard let paths = files[label], paths.indices.contains(number), let path = paths[number].string,
              let bytes = try? FileReader.readAll(path: path, maximumSize: ReferencePictures.maximumBytes) else { return nil }
        return (bytes, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? "image/png" : "image/jpeg")
    }
}
