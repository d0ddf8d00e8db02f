import PlantLeafCore
import PlantLeafSupport

/// The pieces of the pages that corrections and the known plants add, in the page's language:
/// the "Wrong? Tell PlantLeaf what this is" form under a result, and the "Which plants?" section.
/// Their markup is in the templates (correct*.html, known.html); the values put in are escaped here.
extension Corrections {
    /// The form for the picture `picture` names: `photo` (the photo picked on the page), `live`
    /// (the camera's newest reading) or a journal picture's address. The known classes grouped
    /// by crop, then the taught ones. Where corrections are refused, what to do instead.
    func form(picture: String, catalogue: Catalogue) -> String {
        guard allowed else { return PageTemplate.serve.render("correct-off.html", catalogue) }
        var groups: [(crop: String, options: [String])] = []
        for label in labels {
            let name = catalogue.className(label)
            let crop = Corrections.crop(of: name)
            let option = Corrections.option(value: label, name: name, catalogue: catalogue)
            if let last = groups.indices.last, groups[last].crop == crop { groups[last].options.append(option) } else { groups.append((crop, [option])) }
        }
        let taught = taughtNames
        if !taught.isEmpty {
            groups.append((catalogue["page.correct.taught-group"], taught.map { Corrections.option(value: $0, name: displayName($0, catalogue), catalogue: catalogue) }))
        }
        let choices = groups.map { group in
            PageTemplate.serve.render("correct-group.html", catalogue, ["label": HTMLText.escaped(group.crop), "options": group.options.joined()])
        }.joined()
        return PageTemplate.serve.render("correct.html", catalogue, ["picture": HTMLText.escaped(picture), "choices": choices])
    }

    /// "Which plants?": the crops of the model's classes, in the page's language, and what was taught.
    func knownPlants(catalogue: Catalogue) -> String {
        var crops: [String] = []
        for label in labels {
            let crop = Corrections.crop(of: catalogue.className(label))
            if !crops.contains(crop) { crops.append(crop) }
        }
        let separator = catalogue["page.known.separator"]
        let cropsText = catalogue.text("page.known.crops", ["count": catalogue.count("crop", crops.count), "crops": crops.joined(separator: separator)])
        let taught = taughtNames
        let taughtText = taught.isEmpty ? catalogue["page.known.none-taught"] : catalogue.text("page.known.taught", ["names": taught.map { displayName($0, catalogue) }.joined(separator: separator)])
        return PageTemplate.serve.render("known.html", catalogue, ["crops": HTMLText.escaped(cropsText), "taught": HTMLText.escaped(taughtText)])
    }

    /// A taught class's name as the page shows it: one of the model's labels (taught to fit it to
    /// the grower's field) by the catalogue's name, any other as the grower wrote it.
    func displayName(_ className: String, _ catalogue: Catalogue) -> String {
        labels.contains(className) ? catalogue.className(className) : className
    }

    /// The crop of a class's name for people: the part before " — " ("Tomato — Late blight").
    static func crop(of className: String) -> String {
        className.firstRange(of: " — ").map { String(className[..<$0.lowerBound]) } ?? className
    }

    private static func option(value: String, name: String, catalogue: Catalogue) -> String {
        PageTemplate.serve.render("correct-option.html", catalogue, ["value": HTMLText.escaped(value), "name": HTMLText.escaped(name)])
    }
}
