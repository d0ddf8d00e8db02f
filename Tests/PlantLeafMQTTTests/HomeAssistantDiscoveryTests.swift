import PlantLeafCore
import PlantLeafMQTT
import PlantLeafTestSupport
import Testing

@Suite struct HomeAssistantDiscoveryTests {
    @Test func nodeIdKeepsOnlyLettersDigitsUnderscoresAndDashes() {
        #expect(HomeAssistantDiscovery.nodeId(baseTopic: "greenhouse/bench-1") == "greenhouse_bench-1")
        #expect(HomeAssistantDiscovery.nodeId(baseTopic: "serre n°2/été") == "serre_n_2__t_")
    }

    @Test func entityConfigsReadTheRetainedReadingTopics() throws {
        let settings = try MQTTSettings(url: "mqtt://host/greenhouse/bench 1", environment: [:])
        let discovery = HomeAssistantDiscovery(settings: settings, softwareVersion: "1.4.0")
        #expect(discovery.nodeId == "greenhouse_bench_1")
        let entities = [("sensor", "top_class"), ("sensor", "top_score"), ("sensor", "last_seen"), ("binary_sensor", "problem"), ("image", "frame"),
                        ("sensor", "reading_words")]
        #expect(discovery.messages.map(\.topic) == entities.map { "homeassistant/\($0.0)/greenhouse_bench_1/\($0.1)/config" })
        #expect(HomeAssistantDiscovery.configTopics(baseTopic: "greenhouse/bench 1") == discovery.messages.map(\.topic))
        let configs = try discovery.messages.map { message in
            try #require(jsonObject(message.payload), "not a JSON object: \(message.payload)")
        }
        for (config, (_, objectId)) in zip(configs, entities) {
            #expect(config["unique_id"] as? String == "plantleaf_greenhouse_bench_1_\(objectId)")
            #expect(config["availability_topic"] as? String == "greenhouse/bench 1/availability")
            #expect(config["payload_available"] as? String == "online")
            #expect(config["payload_not_available"] as? String == "offline")
            let device = try #require(config["device"] as? [String: Any])
            #expect(device["identifiers"] as? [String] == ["plantleaf_greenhouse_bench_1"])
            #expect(device["name"] as? String == "PlantLeaf greenhouse/bench 1")
            #expect(device["model"] as? String == "PlantLeaf")
            #expect(device["sw_version"] as? String == "1.4.0")
        }
        #expect(configs[0]["name"] as? String == "Reading")
        #expect(configs[0]["state_topic"] as? String == "greenhouse/bench 1/state")
        #expect(configs[0]["json_attributes_topic"] as? String == "greenhouse/bench 1/details")
        #expect(configs[0]["value_template"] == nil)
        #expect(configs[1]["state_topic"] as? String == "greenhouse/bench 1/attributes")
        #expect(configs[1]["value_template"] as? String == "{{ (value_json.top[0].score * 100) | round(1) if value_json.verdict == 'diagnosis' else none }}")
        #expect(configs[1]["unit_of_measurement"] as? String == "%")
        #expect(configs[1]["state_class"] as? String == "measurement")
        #expect(configs[2]["state_topic"] as? String == "greenhouse/bench 1/attributes")
        #expect(configs[2]["value_template"] as? String == "{{ value_json.time }}")
        #expect(configs[2]["device_class"] as? String == "timestamp")
        #expect(configs[3]["state_topic"] as? String == "greenhouse/bench 1/problem")
        #expect(configs[3]["device_class"] as? String == "problem")
        #expect(configs[3]["payload_on"] as? String == "ON")
        #expect(configs[3]["payload_off"] as? String == "OFF")
        // The problem sensor shows the reading's attributes, "view_blocked" among them.
        #expect(configs[3]["json_attributes_topic"] as? String == "greenhouse/bench 1/details")
        #expect(configs[4]["image_topic"] as? String == "greenhouse/bench 1/image")
        #expect(configs[4]["content_type"] as? String == "image/jpeg")
        #expect(configs[5]["name"] as? String == "Reading in words")
        #expect(configs[5]["state_topic"] as? String == "greenhouse/bench 1/details")
        #expect(configs[5]["value_template"] as? String == "{{ value_json.display }}")
    }

    /// Home Assistant makes an entity's id from the name it first sees unless the config gives
    /// an object id: discovered under an Arabic locale, the ids would be transliterated Arabic and
    /// automations written with the English ids would find nothing.
    @Test func entityIdsAreTheSameInEveryLanguage() throws {
        let settings = try MQTTSettings(url: "mqtt://host/Greenhouse/bench-1", environment: [:])
        let expected = ["sensor.plantleaf_greenhouse_bench_1_reading", "sensor.plantleaf_greenhouse_bench_1_top_score",
                        "sensor.plantleaf_greenhouse_bench_1_last_seen", "binary_sensor.plantleaf_greenhouse_bench_1_problem",
                        "image.plantleaf_greenhouse_bench_1_frame", "sensor.plantleaf_greenhouse_bench_1_reading_in_words"]
        #expect(HomeAssistantDiscovery.entityIds(baseTopic: "Greenhouse/bench-1") == expected)
        let arabic = try #require(Catalogue(language: "ar"))
        var names: [[String]] = []
        for catalogue in [Catalogue.english, arabic] {
            let configs = try HomeAssistantDiscovery(settings: settings, softwareVersion: "1", cameraName: "Greenhouse 1", catalogue: catalogue).messages.map { message in
                try #require(jsonObject(message.payload))
            }
            // Discovery configs carry no has_entity_name: MQTT discovery does not know it and drops it.
            #expect(configs.allSatisfy { $0["has_entity_name"] == nil })
            let ids = zip(configs, expected).map { config, id in String(id.prefix { $0 != "." }) + "." + (config["object_id"] as? String ?? "none") }
            #expect(ids == expected)
            // The device is the camera, by its name, in every language.
            #expect(configs.allSatisfy { ($0["device"] as? [String: Any])?["name"] as? String == "PlantLeaf Greenhouse 1" })
            names.append(configs.map { $0["name"] as? String ?? "" })
        }
        #expect(names[0] == ["Reading", "Top score", "Last seen", "Problem", "Frame", "Reading in words"])
        #expect(names[1] == ["القراءة", "أعلى درجة", "آخر قراءة", "مشكلة", "الصورة", "القراءة بالكلمات"])
        #expect(names[1] != names[0], "the names follow the language while the ids stay")
    }

    @Test func theStateLeadsWithTheVerdictAndOnlyAnUnhealthyDiagnosisIsAProblem() {
        func reading(_ verdict: Verdict, _ label: String) -> MQTTReading {
            MQTTReading(record: ReadingRecord(time: "t", verdict: verdict, top: [ScoredClass(index: 0, label: label, score: 0.9)],
                                              timings: ReadingRecord.Timings(prepare: 1, invoke: 2)))
        }
        let blight = reading(.diagnosis, "Tomato___Early_blight")
        #expect(blight.state == "Tomato — Early blight" && blight.isProblem)
        let healthy = reading(.diagnosis, "Apple___healthy")
        #expect(healthy.state == "Apple — healthy" && !healthy.isProblem)
        let expected: [(Verdict, String)] = [(.uncertain, "uncertain"), (.noLeaf, "no leaf"), (.noPicture, "no picture")]
        for (verdict, state) in expected {
            let notADiagnosis = reading(verdict, "Tomato___Early_blight")
            #expect(notADiagnosis.state == state && !notADiagnosis.isProblem, "\(verdict)")
        }
    }

    /// With a journal, a cat in front of a leaf whose blight has held keeps the problem on, and
    /// the attributes say the view is blocked; a camera without one says nothing of it.
    @Test func aBlockedViewKeepsAnEstablishedProblemOnAndSaysSo() throws {
        var cat = MQTTReading(record: ReadingRecord(time: "t", verdict: .noLeaf, reason: .unlikeLeaves, top: [],
                                                    timings: ReadingRecord.Timings(prepare: 1, invoke: 2)))
        #expect(!cat.isProblem && jsonObject(cat.attributes(in: .english))?["view_blocked"] == nil)
        cat.establishedProblem = true
        cat.viewBlocked = true
        let attributes = try #require(jsonObject(cat.attributes(in: .english)))
        #expect(cat.isProblem && cat.state == "no leaf" && attributes["view_blocked"] as? Bool == true)
    }

    /// The Reading's and Problem's attributes hold what holds while the reading does: two
    /// readings of the same leaf a minute apart, with other scores and leaf-likeness, give the
    /// same details (Home Assistant's recorder then writes no row), in the grower's language.
    @Test func detailsChangeOnlyWithTheReading() throws {
        func reading(_ time: String, score: Double, likeness: Double) -> MQTTReading {
            MQTTReading(record: ReadingRecord(time: time, verdict: .diagnosis, top: [ScoredClass(index: 30, label: "Tomato___Late_blight", score: score),
                                                                                  ScoredClass(index: 29, label: "Tomato___Early_blight", score: 1 - score)],
                                              secondOpinion: .leafLikeness(likeness), timings: ReadingRecord.Timings(prepare: 1, invoke: 2)))
        }
        let arabic = try #require(Catalogue(language: "ar"))
        let first = reading("2026-12-07T10:00:00+02:00", score: 0.96, likeness: 0.58), second = reading("2026-12-07T10:01:00+02:00", score: 0.91, likeness: 0.61)
        #expect(first.attributes(in: arabic) != second.attributes(in: arabic))
        #expect(first.details(in: arabic) == second.details(in: arabic))
        let details = try #require(jsonObject(first.details(in: arabic)))
        #expect(details["display"] as? String == "طماطم — اللفحة المتأخرة" && details["verdict"] as? String == "diagnosis")
        #expect(details["advice"] as? String == arabic.diagnosisAdvice("Tomato___Late_blight", for: .photo))
        #expect(details["time"] == nil && details["leaf_likeness"] == nil)
        #expect((details["top"] as? [[String: Any]])?.map { $0.keys.sorted() } == [["label", "name"], ["label", "name"]])
        #expect(reading("t", score: 0.9, likeness: 0.5).state == "Tomato — Late blight", "the state stays English for automations")
    }

    @Test func textIsEscapedInTheJSON() throws {
        let settings = try MQTTSettings(url: #"mqtt://host/say "hi"\now"#, environment: [:])
        let discovery = HomeAssistantDiscovery(settings: settings, softwareVersion: "1.0 \"beta\"")
        let config = try #require(jsonObject(discovery.messages[0].payload))
        #expect(config["state_topic"] as? String == #"say "hi"\now/state"#)
        #expect((config["device"] as? [String: Any])?["sw_version"] as? String == "1.0 \"beta\"")
    }
}

