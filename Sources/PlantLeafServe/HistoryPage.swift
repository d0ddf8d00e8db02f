import PlantLeafCore

/// What the history's charts share (`JournalPage` draws them).
enum HistoryPage {
    /// The colours of what readings mean, in every chart, bar, day line and legend: healthy
    /// green, a problem red, not sure amber, nothing to see grey.
    static let colours: [ReadingMeaning: String] = [.healthy: "#1b7a34", .problem: "#c62828", .notSure: "#e8a200", .nothing: "#9e9e9e"]
}
