/// An `<episode-num>`: its numbering system and value.
public struct EpisodeNumber: Codable, Sendable, Equatable {
    public var system: String
    public var value: String

    public init(system: String, value: String) { self.system = system; self.value = value }

    /// How a listener reads it: xmltv_ns "1.4/10." (zero-based) is "S2E5", with parts "S2E5 (part 1/2)";
    /// onscreen and other systems as the guide wrote them.
    public var display: String? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard system == "xmltv_ns" else { return trimmed.isEmpty ? nil : trimmed }
        let fields = trimmed.split(separator: ".", omittingEmptySubsequences: false).map {
            $0.split(separator: "/").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        }
        func first(_ index: Int) -> Int? { index < fields.count ? fields[index].first ?? nil : nil }
        func total(_ index: Int) -> Int? { index < fields.count && fields[index].count > 1 ? fields[index][1] : nil }
        var text = ""
        if let season = first(0), season >= 0, season < 10_000 { text += "S\(season + 1)" }
        if let episode = first(1), episode >= 0, episode < 100_000 { text += "E\(episode + 1)" }
        if let part = first(2), part >= 0, part < 1000 {
            text += (text.isEmpty ? "" : " ") + "(part \(part + 1)" + (total(2).map { "/\($0)" } ?? "") + ")"
        }
        return text.isEmpty ? nil : text
    }

    /// The series this episode belongs to, where the system names one: Schedules Direct's
    /// dd_progid "EP01006886.0028" is episode 28 of series EP01006886; a "series" number is one.
    public var seriesID: String? {
        switch system {
        case "dd_progid":
            let series = value.split(separator: ".").first.map(String.init)?.trimmingCharacters(in: .whitespaces)
            return series?.isEmpty == false ? series : nil
        case "series":
            let series = value.trimmingCharacters(in: .whitespaces)
            return series.isEmpty ? nil : series
        default:
            return nil
        }
    }
}
