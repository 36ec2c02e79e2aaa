import Foundation

/// A chapter as a podcast publishes it: where it starts in the episode, and its title.
public struct FeedChapter: Codable, Sendable, Equatable {
    public var start: Double
    public var title: String

    public init(start: Double, title: String) { self.start = start; self.title = title }
}

/// Podcasting 2.0 chapter files (`<podcast:chapters type="application/json+chapters">`):
/// `{"version": "1.2.0", "chapters": [{"startTime": 0, "title": "Intro"}, …]}`. Chapters marked
/// `"toc": false` are not for the listener's list and are left out, as are untitled ones.
public enum ChapterFile {
    private struct Document: Decodable {
        struct Entry: Decodable {
            var startTime: Double
            var title: String?
            var toc: Bool?
        }
        var chapters: [Entry]
    }

    public static func read(_ data: Data) throws(PodcastError) -> [FeedChapter] {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw PodcastError("not a chapters file (JSON with \"chapters\": [{\"startTime\", \"title\"}])")
        }
        return document.chapters
            .filter { $0.toc != false && $0.startTime.isFinite && $0.startTime >= 0 && !($0.title ?? "").isEmpty }
            .map { FeedChapter(start: $0.startTime, title: $0.title!) }
            .sorted { $0.start < $1.start }
    }
}
