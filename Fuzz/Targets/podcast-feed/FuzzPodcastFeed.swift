import Foundation
import Podcasts

/// Podcast feeds (RSS 2.0, Atom) as a feed server sends them: any bytes give a titled feed whose
/// episodes all have an http(s) enclosure and a non-negative length, or one error line — never a crash.
/// The same bytes as a podcast:chapters file give chapters in order, or one error line.
func fuzzPodcastFeed(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    do {
        let feed = try FeedReader.read(Data(bytes: data, count: size))
        precondition(!feed.title.isEmpty, "a feed without a title")
        for episode in feed.episodes {
            let url = URL(string: episode.url)
            precondition(["http", "https"].contains(url?.scheme?.lowercased() ?? "") && url?.host?.isEmpty == false,
                         "an enclosure that is not http(s) on a named host: \(episode.url)")
            precondition(episode.duration.map { $0 >= 0 } ?? true, "a negative duration")
        }
    } catch {
        precondition(!error.description.contains("\n"), "an error of more than one line: \(error)")
    }
    do {
        let chapters = try ChapterFile.read(Data(bytes: data, count: size))
        precondition(zip(chapters, chapters.dropFirst()).allSatisfy { $0.start <= $1.start }, "chapters out of order")
    } catch {
        precondition(!error.description.contains("\n"), "an error of more than one line: \(error)")
    }
    return 0
}
