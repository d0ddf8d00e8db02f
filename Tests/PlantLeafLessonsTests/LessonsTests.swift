import Foundation
import Glibc
import PlantLeafCore
import PlantLeafLessons
import PlantLeafTestSupport
import Synchronization
import Testing

/// The lessons file on real SQLite files, and the rule that compares a photo with the lessons.
@Suite struct LessonsTests {
    static let width = 16

    /// A feature vector near direction `axis` (the centre is zero), with a little spread `wobble`.
    static func vector(axis: Int, wobble: Float = 0, at place: Int = 0) -> [Float] {
        var values = [Float](repeating: 0.05, count: width)
        values[axis] = 1
        values[(axis + 1 + place) % width] += wobble
        return values
    }

    static let reference = LessonsFile.Reference(centre: [Float](repeating: 0.05, count: width),
                                                 modelClassMeans: [vector(axis: 10), vector(axis: 11)])

    static func lesson(_ name: String, axis: Int, place: Int = 0) -> LessonsFile.NewLesson {
        LessonsFile.NewLesson(className: name, features: vector(axis: axis, wobble: 0.3, at: place),
                              mirroredFeatures: vector(axis: axis, wobble: 0.2, at: place + 1), picture: [0xFF, 0xD8, 0xFF, 0xD9],
                              source: "photo-\(place).jpg")
    }

    @Test func lessonsReadBackAsWritten() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/state/plantleaf/lessons.sqlite"
        let arabic = "خيار — البياض الزغبي"
        try LessonsFile(path: path).add([Self.lesson(arabic, axis: 1), Self.lesson(arabic, axis: 1, place: 1), Self.lesson("Bean — rust", axis: 2)],
                                        reference: Self.reference, time: "2026-12-07T03:00:00+00:00")
        let reopened = try LessonsFile(path: path, readOnly: true)
        let lessons = try reopened.lessons(pictures: true)
        #expect(lessons.map(\.className) == [arabic, arabic, "Bean — rust"])
        #expect(lessons[0].features == Self.lesson(arabic, axis: 1).features)
        #expect(lessons[0].mirroredFeatures == Self.lesson(arabic, axis: 1).mirroredFeatures)
        #expect(lessons[2].picture == [0xFF, 0xD8, 0xFF, 0xD9] && lessons[1].source == "photo-1.jpg")
        #expect(try reopened.reference() == Self.reference)
        let taught = try #require(try reopened.taughtClasses())
        #expect(taught.classes.map(\.name) == [arabic, "Bean — rust"])

        // Export, then import into an empty file: the same lessons; importing again adds none.
        try reopened.export(to: folder + "/shared.sqlite")
        #expect(throws: LessonsError.self) { try reopened.export(to: folder + "/shared.sqlite") }
        let neighbour = try LessonsFile(path: folder + "/neighbour.sqlite")
        #expect(try neighbour.importLessons(from: folder + "/shared.sqlite") == 3)
        #expect(try neighbour.importLessons(from: folder + "/shared.sqlite") == 0)
        #expect(try neighbour.lessons().map(\.features) == lessons.map(\.features))
        #expect(try neighbour.reference() == Self.reference)

        #expect(try LessonsFile(path: path).remove(ids: [], className: "Bean — rust") == 1)
        #expect(try LessonsFile(path: path).lessons().count == 2)
    }

    /// The line a lessons error says, or nil when `body` does not throw one.
    static func refusal(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as LessonsError {
            return error.description
        } catch {
            return nil
        }
    }

    @Test func badNamesAndBadFilesLeaveTheLessonsAsTheyWere() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/lessons.sqlite"
        let file = try LessonsFile(path: path)
        try file.add([Self.lesson("Bean — rust", axis: 2)], reference: Self.reference, time: "2026-12-07T03:00:00+00:00")
        for name in ["", "   ", String(repeating: "x", count: 10_240), "two\nlines"] {
            #expect(throws: LessonsError.self) {
                try file.add([Self.lesson("fine", axis: 3), Self.lesson(name, axis: 4)], reference: Self.reference, time: "2026-12-07T03:00:00+00:00")
            }
        }
        var tooLarge = Self.lesson("fine", axis: 3)
        tooLarge.picture = [UInt8](repeating: 7, count: LessonsFile.maximumPictureBytes + 1)
        #expect(throws: LessonsError.self) { try file.add([tooLarge], reference: Self.reference, time: "2026-12-07T03:00:00+00:00") }
        var otherModel = Self.lesson("fine", axis: 3)
        otherModel.features = [1, 2, 3]
        #expect(throws: LessonsError.self) { try file.add([otherModel], reference: Self.reference, time: "2026-12-07T03:00:00+00:00") }
        #expect(try file.lessons().map(\.className) == ["Bean — rust"])

        // Not SQLite at all, and SQLite but not lessons: one clear error, the file untouched.
        let garbage = folder + "/garbage.sqlite"
        let bytes = [UInt8](repeating: 0x41, count: 8192)
        try Data(bytes).write(to: URL(fileURLWithPath: garbage))
        #expect(Self.refusal { _ = try LessonsFile(path: garbage).lessons() }.map { $0.contains("damaged") && $0.contains(garbage) } == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: garbage)) == Data(bytes))
        let journal = folder + "/journal.sqlite"
        _ = try runCommand("/usr/bin/env", ["python3", "-c", "import sqlite3; sqlite3.connect('\(journal)').execute('CREATE TABLE t(x)')"])
        #expect(Self.refusal { _ = try LessonsFile(path: journal) }?.contains("not PlantLeaf's lessons") == true)

        // A lesson whose features were cut short is found when read, not used.
        _ = try runCommand("/usr/bin/env", ["python3", "-c", "import sqlite3; c = sqlite3.connect('\(path)'); c.execute(\"UPDATE lessons SET features = x'00000000'\"); c.commit()"])
        #expect(Self.refusal { _ = try LessonsFile(path: path, readOnly: true).taughtClasses() }?.contains("damaged") == true)
    }

    /// A class count in the file whose product with the feature count overflows, or a negative
    /// one, is damage said in one line, not a trap (the lessons-rows fuzz target found the first).
    @Test func classCountsThatCannotBeAreDamage() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/lessons.sqlite"
        try LessonsFile(path: path).add([Self.lesson("Bean — rust", axis: 2)], reference: Self.reference, time: "2026-12-07T03:00:00+00:00")
        for count in ["4611686018427387904", "-2"] {
            try ForeignSQLite.execute(path, "UPDATE meta SET value = \(count) WHERE key = 'model_classes'")
            #expect(Self.refusal { _ = try LessonsFile(path: path, readOnly: true).taughtClasses() }
                    == "the lessons file \(path) is damaged (its reference vectors do not fit together): restore it from an export, or give another --lessons FILE",
                    "model_classes \(count)")
        }
    }

    /// The lessons-rows fuzz target's seeds write what they are named for (FuzzSeedTests runs
    /// them through the target).
    @Test func theFuzzSeedsWriteWhatTheyAreNamedFor() {
        let seeds = Dictionary(uniqueKeysWithValues: FuzzTargets.lessonsRows.seeds().map { ($0.name, $0.bytes) })
        #expect(LessonsFuzzing.statements(seeds["model-classes-overflow"]!) == ["UPDATE meta SET value = 4611686018427387904 WHERE key = 'model_classes'"])
        #expect(LessonsFuzzing.statements(seeds["features-nan"]!) == ["UPDATE lessons SET features = x'0000c07f0000c07f0000c07f0000c07f' WHERE id = 2"])
        #expect(LessonsFuzzing.statements(seeds["class-with-line-break"]!) == ["UPDATE lessons SET class = CAST(x'610a62' AS TEXT) WHERE id = 3"])
        #expect(LessonsFuzzing.statements(seeds["centre-deleted"]!) == ["DELETE FROM meta WHERE key = 'centre'"])
    }

    @Test func concurrentWritersBothKeepTheirLessons() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/lessons.sqlite"
        _ = try LessonsFile(path: path)
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { writer in
            do {
                let file = try LessonsFile(path: path)
                for round in 0..<10 {
                    try file.add([Self.lesson("class \(writer)", axis: writer, place: round)], reference: Self.reference,
                                 time: "2026-12-07T03:00:00+00:00")
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let lessons = try LessonsFile(path: path, readOnly: true).lessons()
        #expect(lessons.count == 40)
        #expect(Set(lessons.map(\.className)).count == 4)
    }

    @Test func aTaughtClassWinsOnlyNearItsLessons() {
        let examples = (0..<5).flatMap { place in
            [TaughtClasses.Example(className: "A", features: Self.vector(axis: 1, wobble: 0.3, at: place), mirroredFeatures: nil),
             TaughtClasses.Example(className: "B", features: Self.vector(axis: 2, wobble: 0.3, at: place), mirroredFeatures: nil)]
        }
        let taught = TaughtClasses(examples: examples, centre: Self.reference.centre, modelClassMeans: Self.reference.modelClassMeans)
        #expect(taught.classes.allSatisfy { TaughtClasses.thresholdRange.contains($0.threshold) })
        let nearA = taught.match(Self.vector(axis: 1, wobble: 0.2, at: 7))
        #expect(nearA?.className == "A" && nearA?.wins == true && nearA?.closeToAnother == false)
        // Nearer a model class than any lesson: the model's answer stands.
        #expect(taught.match(Self.vector(axis: 10))?.wins == false)
        // Far from everything (another direction altogether): no taught class.
        #expect(taught.match(Self.vector(axis: 6))?.wins == false)
        // Halfway between two classes taught alike: as close to both, so no single answer.
        let twins = TaughtClasses(examples: [TaughtClasses.Example(className: "A", features: Self.vector(axis: 1), mirroredFeatures: nil),
                                             TaughtClasses.Example(className: "A", features: Self.vector(axis: 1), mirroredFeatures: nil),
                                             TaughtClasses.Example(className: "B", features: Self.vector(axis: 2), mirroredFeatures: nil),
                                             TaughtClasses.Example(className: "B", features: Self.vector(axis: 2), mirroredFeatures: nil)],
                                  centre: Self.reference.centre, modelClassMeans: Self.reference.modelClassMeans)
        var between = [Float](repeating: 0.05, count: Self.width)
        between[1] = 1
        between[2] = 1
        let halfway = twins.match(between)
        #expect(halfway?.wins == true && halfway?.closeToAnother == true)
        // Features of another length are no match.
        #expect(taught.match([1, 2, 3]) == nil)
    }
}
