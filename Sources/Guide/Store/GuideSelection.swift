import Foundation

/// Which broadcasts of a guide channel a rule records: those whose title (in any language) matches a
/// regular expression, or those of one series (see `EpisodeNumber.seriesID`).
public struct GuideSelection: Codable, Sendable, Equatable {
    /// The guide channel, fixed when the rule is made.
    public var channel: String
    public var titlePattern: String?
    public var series: String?
    /// The station's language, to pick the title and description a recording is tagged with.
    public var language: String?

    /// Checks the pattern once, so a bad one is refused when the rule is made.
    public init(channel: String, titlePattern: String? = nil, series: String? = nil, language: String? = nil) throws(GuideError) {
        guard (titlePattern == nil) != (series == nil) else { throw GuideError("give a title pattern or a series id, not both") }
        if let titlePattern {
            do {
                _ = try NSRegularExpression(pattern: titlePattern, options: [.caseInsensitive])
            } catch {
                throw GuideError("invalid title pattern '\(titlePattern)': not a regular expression")
            }
        }
        self.channel = channel; self.titlePattern = titlePattern; self.series = series; self.language = language
    }

    /// "title ~ /Jazz Hour/ on jazz.example" or "series EP0123 on jazz.example".
    public var description: String {
        if let titlePattern { return "title ~ /\(titlePattern)/ on \(channel)" }
        return "series \(series ?? "") on \(channel)"
    }

    /// Whether a broadcast is one the selection asks for (the pattern compiled once, for a whole scan).
    func matcher() -> (GuideBroadcast) -> Bool {
        if let series { return { $0.seriesIDs.contains(series) } }
        guard let titlePattern, let expression = try? NSRegularExpression(pattern: titlePattern, options: [.caseInsensitive])
        else { return { _ in false } }
        return { broadcast in
            broadcast.titles.contains { title in
                expression.firstMatch(in: title.text, range: NSRange(title.text.startIndex..., in: title.text)) != nil
            }
        }
    }
}
