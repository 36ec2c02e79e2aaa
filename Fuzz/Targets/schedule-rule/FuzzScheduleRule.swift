import Foundation
import RadioModel
import Scheduling

/// A schedule rule as `onair schedule add` reads it, one field a line: the timing (`cron …`, `on …`
/// or a weekly `--at` text), the length, the time zone. Whatever `RuleRequest` accepts is expanded from a fixed
/// instant: the episodes come in order, none twice, none ending before the instant, each as long as asked.
func fuzzScheduleRule(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard lines.count >= 3, let length = TimeSpan(lines[1]), length.seconds > 0 else { return 0 }
    // Through `RuleRequest`, as `onair schedule add` hands its options in.
    var request = RuleRequest(station: "fuzz")
    if lines[0].hasPrefix("cron ") {
        request.cron = String(lines[0].dropFirst(5))
    } else if lines[0].hasPrefix("on ") {
        request.on = String(lines[0].dropFirst(3))
    } else {
        request.at = lines[0]
    }
    (request.duration, request.timeZone) = (lines[1], lines[2])
    let instant = Date(timeIntervalSince1970: 1_795_000_000)
    guard let rule = (try? request.rule(catalogueStation: nil, guide: nil, now: instant))?.rule, let expansion = try? RuleExpansion(rule) else { return 0 }
    let episodes = expansion.occurrences(endingAfter: instant, limit: 4)
    precondition(episodes.count <= 4, "more episodes than asked for")
    for (index, episode) in episodes.enumerated() {
        precondition(episode.window.end > instant, "an episode that ended before the instant: \(episode)")
        precondition(abs(episode.end.timeIntervalSince(episode.start) - length.seconds) < 0.001, "an episode of the wrong length: \(episode)")
        if index > 0 { precondition(episodes[index - 1].start < episode.start, "episodes out of order or twice: \(episodes)") }
    }
    return 0
}
