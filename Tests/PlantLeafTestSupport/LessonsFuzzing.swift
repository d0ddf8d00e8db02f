import Foundation
import PlantLeafCore
import PlantLeafJournal
import PlantLeafLessons

extension FuzzTargets {
    /// A real lessons file (three taught classes with pictures, the reference vectors), its
    /// columns overwritten with values the input picks, read through every reader teach,
    /// classify, camera and serve use: the reference, the lessons with and without pictures, the
    /// taught classes and a match, leave-one-out, export and import. A damaged file is one
    /// `LessonsError`; nothing may trap.
    public static let lessonsRows = FuzzTarget(
        name: "lessons-rows",
        summary: "Lessons readers on a real SQLite lessons file whose columns (meta and lessons) hold fuzzed values: extreme integers, "
            + "infinities, text of any bytes, blobs of any length (feature vectors of any size), NULL, deleted rows",
        run: { bytes in
            let path = LessonsFuzzing.freshFile()
            defer { LessonsFuzzing.remove(path) }
            for statement in LessonsFuzzing.statements(bytes) { try? ForeignSQLite.execute(path, statement) }
            LessonsFuzzing.readEverything(path)
        },
        seeds: { LessonsFuzzing.seeds })
}

/// The lessons-rows target's pieces, public for its tests.
public enum LessonsFuzzing {
    /// The tables and their columns, as `LessonsFile` makes them. A meta row is one key.
    static let tables: [(name: String, columns: [String])] = [
        ("meta", ["key", "value"]),
        ("lessons", ["id", "class", "features", "mirrored", "picture", "source", "added"]),
    ]

    /// The meta rows by key, so that the input can pick one to change.
    static let metaKeys = ["format", "centre", "model_means", "model_classes", "model"]

    /// Integers at the edges of what the readers compute with: class counts that overflow a
    /// product with the feature count, negative counts, the format's neighbours.
    static let extremes: [String] = ["-9223372036854775808", "9223372036854775807", "0", "-1", "1", "2", "3", "38",
                                     "4611686018427387904", "2305843009213693952", "7205759403792794", "5001"]

    /// The SQL the input asks for, five bytes or more a change: table, column, row (0: every
    /// row), kind of value, the value's bytes.
    public static func statements(_ bytes: [UInt8]) -> [String] {
        var input = FuzzedSQL(bytes)
        var statements: [String] = []
        while statements.count < 16, let tableByte = input.next(), let columnByte = input.next(), let rowByte = input.next(), let kind = input.next() {
            let table = tables[Int(tableByte) % tables.count]
            let column = table.columns[Int(columnByte) % table.columns.count]
            let row = Int(rowByte) % 6
            let which: String
            if row == 0 {
                which = ""
            } else if table.name == "meta" {
                which = " WHERE key = '\(metaKeys[(row - 1) % metaKeys.count])'"
            } else {
                which = " WHERE id = \(row)"
            }
            switch kind % 9 {
            case 7:
                statements.append("DELETE FROM \(table.name)\(which)")
            case 8:
                // A row added: a lesson copied under a new id, or the class count written again.
                statements.append(table.name == "meta" ? "INSERT OR REPLACE INTO meta(key, value) VALUES ('model_classes', \(extremes[Int(input.next() ?? 0) % extremes.count]))"
                                                       : "INSERT INTO lessons(class, features, mirrored, picture, source, added) "
                                                         + "SELECT class, features, mirrored, picture, source, added FROM lessons\(which)")
            default:
                statements.append("UPDATE \(table.name) SET \(column) = \(input.value(kind: kind % 9, extremes: extremes))\(which)")
            }
        }
        return statements
    }

    /// Damage that once could trap or could mislead: a class count whose product with the
    /// feature count overflows, a negative one, features of another length, NaN features, a
    /// class name with a line break, the reference gone while lessons remain.
    static let seeds: [(name: String, bytes: [UInt8])] = [
        ("model-classes-overflow", [0, 1, 4, 1, 8]),
        ("model-classes-negative", [0, 1, 4, 1, 3]),
        ("features-of-another-length", [1, 2, 1, 6, 6, 0, 0, 0x80, 0x3f, 0, 0]),
        ("features-nan", [1, 2, 2, 6, 16, 0, 0, 0xc0, 0x7f, 0, 0, 0xc0, 0x7f, 0, 0, 0xc0, 0x7f, 0, 0, 0xc0, 0x7f]),
        ("class-with-line-break", [1, 1, 3, 5, 3, 0x61, 0x0a, 0x62]),
        ("centre-deleted", [0, 0, 2, 7]),
        ("format-as-text", [0, 1, 1, 5, 1, 0x39]),
        ("every-lesson-copied", [1, 0, 0, 8]),
    ]

    /// The lessons each run starts from.
    private static let template = FuzzedFileTemplate(name: "lessons") { path in
        let file = try LessonsFile(path: path)
        // Four features, so that a blob of the input's bytes can be a whole vector (4 bytes a feature).
        let reference = LessonsFile.Reference(centre: [0.25, 0.5, 0.125, 1], modelClassMeans: [[1, 0, 0, 0], [0, 1, 0, 0]], model: "fuzz.tflite")
        let picture: [UInt8] = [0xff, 0xd8, 0xff, 0xd9]
        var lessons: [LessonsFile.NewLesson] = []
        for (index, name) in ["Bean — angular leaf spot", "خيار — البياض الزغبي", "Bean — rust"].enumerated() {
            for step in 0..<2 {
                let features: [Float] = [Float(index), Float(step) + 0.5, 2 - Float(index), 0.75]
                lessons.append(LessonsFile.NewLesson(className: name, features: features, mirroredFeatures: features.reversed(),
                                                     picture: picture, source: "photo-\(index)-\(step).jpg"))
            }
        }
        try file.add(lessons, reference: reference, time: "2026-12-07T10:00:00.000+00:00")
    }

    static func freshFile() -> String { template.freshCopy() }

    static func remove(_ path: String) {
        for file in [path, path + "-wal", path + "-shm", path + ".export", path + ".export-wal", path + ".export-shm",
                     path + ".import", path + ".import-wal", path + ".import-shm"] { unlink(file) }
    }

    /// Every reader of the lessons at `path`, as teach list/check/export/import and the
    /// classifiers use them.
    public static func readEverything(_ path: String) {
        guard let file = try? LessonsFile(path: path, readOnly: true) else { return }
        _ = try? file.reference()
        _ = try? file.lessons(pictures: true)
        if let taught = try? LessonsFile.loadIfPresent(path: path) {
            for photo: [Float] in [[0, 0.5, 2, 0.75], [1, 1, 1, 1], [.nan, 0, 0, 0], [.infinity, 0, 0, 0], [0, 0, 0]] {
                _ = taught.match(photo)
            }
        }
        if let reference = try? file.reference(), let lessons = try? file.lessons() {
            _ = TaughtClasses.leaveOneOut(examples: lessons.map(\.example), centre: reference.centre, modelClassMeans: reference.modelClassMeans)
        }
        if (try? file.export(to: path + ".export")) != nil, let fresh = try? LessonsFile(path: path + ".import") {
            _ = try? fresh.importLessons(from: path + ".export")
            _ = try? fresh.lessons()
        }
    }
}
