import Foundation
import PlantLeafCore
import PlantLeafJournal
import PlantLeafMQTT
import PlantLeafSupport
import PlantLeafTestSupport
import Testing

/// Every form of the reading record walked against its one declaration, `ReadingRecord.fields`
/// and `classFields`: each member is where the table says in the JSON line (and reads back), in
/// classify's CSV, in the journal's columns, JSON and CSV, and in the MQTT attributes; and the
/// page's script and Home Assistant's templates read only members that are there.
@Suite struct ReadingFieldTests {
    static let top = [ScoredClass(index: 29, label: "Tomato___Early_blight", score: 0.875), ScoredClass(index: 3, label: "Apple___healthy", score: 0.125)]
    /// A record with every member set (numbers a Float keeps exactly, so the journal reads them back equal).
    static let full: ReadingRecord = {
        var record = ReadingRecord(path: "leaf.jpg", pathHex: "6c6561662e6a7067", frame: 7, time: "2026-12-02T10:15:30.125+01:00", verdict: .uncertain,
                                   reason: .lowScore, top: top, secondOpinion: .leafLikeness(0.5), ageMilliseconds: 41.25,
                                   timings: .init(read: 0.5, prepare: 0.75, invoke: 4.5, postprocess: 0.25, generalist: 2.25),
                                   captureFramesPerSecond: 29.5, inferenceFramesPerSecond: 14.75, dropped: 2, saved: "frames/7.jpg")
        record.answerFrom = .lessons
        record.taught = "Moringa rust"
        record.taughtSimilarity = 0.625
        return record
    }()
    /// The same, its generalist check skipped: leaf_likeness is null and leaf_likeness_skipped says why.
    static let skipped: ReadingRecord = {
        var record = full
        record.secondOpinion = .skipped(reason: "no reference")
        return record
    }()

    static func object(_ json: String) throws -> [String: JSONValue] {
        guard case .object(let members) = try JSONValue(parsing: Array(json.utf8), maximumDepth: 8, maximumBytes: 1 << 20) else {
            throw ReadingRecordError.notAnObject
        }
        return members
    }

    static func member(_ field: ReadingField, in object: [String: JSONValue]) -> JSONValue? {
        guard field.group != .record else { return object[field.key] }
        guard case .object(let group)? = object[field.group.rawValue] else { return nil }
        return group[field.key]
    }

    /// What a member's value is as JSON.
    static func json(_ value: ReadingField.Value?, decimals: Int) -> JSONValue? {
        switch value {
        case nil: return nil
        case .null?: return .null
        case .integer(let number)?: return .number(Double(number))
        case .real(let number)?: return .number(Double(DecimalText.shortest(number, decimals: decimals)!)!)
        case .text(let text)?: return .string(text)
        case .classes?: return nil
        }
    }

    @Test func keysColumnsAndPlacesAreEachDeclaredOnce() {
        let fields = ReadingRecord.fields
        #expect(Set(fields.map(\.path)).count == fields.count)
        #expect(Set(fields.compactMap(\.sqlColumn)).count == fields.compactMap(\.sqlColumn).count)
        let csvNames = fields.compactMap(\.csvColumn) + ReadingRecord.classFields.compactMap(\.csvColumn)
        #expect(Set(csvNames).count == csvNames.count)
        for place in [\RecordPlaces.classifyCSV, \.journalCSV, \.mqtt] {
            let places = fields.compactMap { $0.places[keyPath: place] } + ReadingRecord.classFields.compactMap { $0.places[keyPath: place] }
            #expect(Set(places).count == places.count, "\(place)")
        }
        // Whatever has a CSV place has a column name, and words are never kept.
        for field in fields where field.places.classifyCSV != nil || field.places.journalCSV != nil { #expect(field.csvColumn != nil, "\(field.key)") }
        for field in fields where field.kind == .words { #expect(field.sqlColumn == nil, "\(field.key)") }
    }

    @Test func theJSONLineHasEachMemberAndReadsBack() throws {
        for record in [Self.full, Self.skipped] {
            let line = record.json
            let object = try Self.object(line)
            #expect(object["schema"] == .number(Double(ReadingRecord.schema)))
            for field in ReadingRecord.fields {
                let value = field.value(record, .english)
                #expect(value != nil || field.key == "leaf_likeness_skipped", "\(field.key) is set in the full record")
                if field.kind == .classes {
                    guard case .array(let entries)? = object[field.key] else { Issue.record("no \(field.key) array"); continue }
                    #expect(entries.count == record.top.count)
                    for case .object(let entry) in entries {
                        for member in ReadingRecord.classFields { #expect(entry[member.key] != nil, "top[].\(member.key)") }
                    }
                } else {
                    #expect(Self.member(field, in: object) == Self.json(value, decimals: field.decimals), "\(field.path) in \(line)")
                }
            }
            // Every member of the line is one the tables declare.
            let declared = Set(ReadingRecord.fields.map { $0.group == .record ? $0.key : $0.group.rawValue }).union(["schema"])
            #expect(Set(object.keys).subtracting(declared).isEmpty, "\(object.keys)")
            #expect(try ReadingRecord(decoding: Array(line.utf8)) == record)
        }
    }

    @Test func classifyCSVHasEachPlacedMemberInItsColumn() {
        let columns = ClassificationOutput.csvHeader.split(separator: ",").map(String.init)
        let placed = (ReadingRecord.fields.compactMap { field in field.places.classifyCSV.map { ($0, field.csvColumn!) } }
            + ReadingRecord.classFields.compactMap { field in field.places.classifyCSV.map { ($0, field.csvColumn!) } } + [(2, "rank")])
            .sorted { $0.0 < $1.0 }.map(\.1)
        #expect(columns == placed)
        let row = ReadingCSV.row(ClassificationOutput.csvColumns, record: Self.full, scored: Self.top[0], own: ["1"], catalogue: .english)
            .split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(row.count == columns.count)
        for field in ReadingRecord.fields where field.places.classifyCSV != nil {
            let cell = row[columns.firstIndex(of: field.csvColumn!)!]
            switch field.value(Self.full, .english) {
            case .real(let number)?: #expect(cell == DecimalText.shortest(number, decimals: field.decimals), "\(field.key)")
            case .text(let text)?: #expect(cell == text, "\(field.key)")
            default: Issue.record("\(field.key): a CSV column of a kind CSV has no cell for")
            }
        }
        #expect(row[columns.firstIndex(of: "label")!] == "Tomato___Early_blight" && row[columns.firstIndex(of: "score")!] == "0.875")
        #expect(row[columns.firstIndex(of: "display")!] == "Tomato — Early blight" && row[columns.firstIndex(of: "rank")!] == "1")
    }

    /// The journal on a real SQLite file: each member with a column has it in the table and
    /// reads back as written; those without (the path) are not kept; the exported JSON is the
    /// record's line with the journal's id and source after it, and the CSV has its placed columns.
    @Test func theJournalKeepsEachMemberWithAColumn() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/journal.sqlite"
        let journal = try Journal(path: path)
        let time = JournalTime(iso8601: Self.full.time!)!
        for record in [Self.full, Self.skipped] { try journal.insert(record, source: "greenhouse", time: time) }
        for field in ReadingRecord.fields {
            guard let column = field.sqlColumn else { continue }
            // Fails when the readings table has no such column.
            try ForeignSQLite.execute(path, "SELECT \(column) FROM readings")
        }
        let readings = try journal.readings(Journal.Selection())
        try #require(readings.count == 2)
        for (reading, written) in zip(readings, [Self.full, Self.skipped]) {
            for field in ReadingRecord.fields where field.kind != .words {
                let read = field.value(reading.record, .english)
                #expect(field.sqlColumn == nil && field.key != "time" ? read == nil : read == field.value(written, .english), "\(field.key)")
            }
            let exported = try Self.object(JournalJSON.reading(reading))
            #expect(exported["id"] == .number(Double(reading.id)) && exported["source"] == .string("greenhouse"))
            var expected = try Self.object(reading.record.json)
            expected["id"] = exported["id"]
            expected["source"] = exported["source"]
            #expect(exported == expected)
        }
        #expect(journal.takeDamagedRows().isEmpty)

        let header = JournalJSON.csvHeader.split(separator: ",").map(String.init)
        let placed = ReadingRecord.fields.compactMap(\.places.journalCSV).count + ReadingRecord.classFields.compactMap(\.places.journalCSV).count
        #expect(header.count == placed + 2 && header.first == "id" && header[2] == "source")
        for field in ReadingRecord.fields where field.places.journalCSV != nil { #expect(header[field.places.journalCSV!] == field.csvColumn) }
        #expect(JournalJSON.csvRow(readings[0]) == "\(readings[0].id),2026-12-02T10:15:30.125+01:00,greenhouse,uncertain,low-score,Tomato___Early_blight,0.875,0.5,0.75,4.5,lessons,Moringa rust")
    }

    @Test func mqttAttributesCarryTheMembersPlacedThere() throws {
        for record in [Self.full, Self.skipped] {
            let attributes = try Self.object(MQTTReading(record: record).attributes(in: .english))
            for field in ReadingRecord.fields {
                if field.places.mqtt != nil {
                    let value = field.value(record, .english)
                    #expect(attributes[field.key] == Self.json(value, decimals: field.decimals), "\(field.key)")
                } else {
                    #expect(attributes[field.key] == nil || field.key == "top", "\(field.key) is no attribute")
                }
            }
        }
        // The MQTT attributes' own: the state in words and the top classes by name.
        let keys = try Self.object(MQTTReading(record: Self.skipped).attributes(in: .english)).keys
        #expect(Set(keys) == Set(ReadingRecord.fields.filter { $0.places.mqtt != nil }.map(\.key) + ["display", "top"]))
    }

    /// Home Assistant's templates read the attributes topic, or the details topic (the Reading in
    /// words): each member they name is one the topic they read carries.
    @Test func homeAssistantTemplatesReadMembersTheAttributesHave() throws {
        let settings = try MQTTSettings(url: "mqtt://localhost/plantleaf/bench", environment: [:])
        let reading = MQTTReading(record: Self.full)
        let payloads = [settings.attributesTopic: try Self.object(reading.attributes(in: .english)),
                        settings.detailsTopic: try Self.object(reading.details(in: .english))]
        let named = try Regex(#"value_json\.([a-z_]+)"#)
        var members: Set<String> = []
        for message in HomeAssistantDiscovery(settings: settings, softwareVersion: "test").messages {
            let config = try #require(jsonObject(message.payload))
            guard let template = config["value_template"] as? String, let topic = config["state_topic"] as? String else { continue }
            let payload = try #require(payloads[topic], "\(topic) carries no JSON")
            for match in template.matches(of: named) {
                let member = String(match.output[1].substring!)
                members.insert(member)
                #expect(payload[member] != nil, "\(topic) has no \(member)")
            }
        }
        #expect(members == ["top", "verdict", "time", "display"])
    }

    /// The page's script reads answers (classify's and the camera's records): each member it
    /// names is one the tables declare, where it declares it.
    @Test func thePageReadsMembersTheRecordHas() throws {
        let script = try String(contentsOfFile: TestPaths.root + "/Sources/PlantLeafServe/Embedded/app.js", encoding: .utf8)
        func names(_ pattern: String) throws -> Set<String> {
            Set(script.matches(of: try Regex(pattern)).map { String($0.output[1].substring!) })
        }
        let record = Set(ReadingRecord.fields.filter { $0.group == .record }.map(\.key) + [ReadingField.Group.timings.rawValue])
        // "error" is the API's refusal, not a record.
        #expect(try names(#"answer\.([a-z_]+)"#).subtracting(record) == ["error"])
        let stages = Set(ReadingRecord.fields.filter { $0.group == .timings }.map(\.key))
        #expect(try names(#"\b(?:t|timing)\.([a-z_]+)"#).subtracting(["toFixed"]).isSubset(of: stages))
        #expect(try names(#"entry\.([a-z_]+)"#).isSubset(of: Set(ReadingRecord.classFields.map(\.key))))
        #expect(try !names(#"answer\.([a-z_]+)"#).isEmpty)
    }
}
