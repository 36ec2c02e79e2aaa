import Foundation
import TestSupport

/// What onair printed for one corpus case, and the requests it made.
struct CorpusRun {
    /// The commands run, in order: one for resolve, listen and ICY cases; `podcasts add` then
    /// `podcasts episodes`; `guide import` then `guide --date`.
    let steps: [ProcessResult]
    let requests: [CorpusServer.Request]
}

/// The judge of the real-world corpus: whether what onair concluded is one of the outcomes a case
/// accepts. Nothing in between passes: an answer that is only defensible is a failure to look at.
struct RealWorldJudge {
    let corpus: RealWorldCorpus

    struct Verdict {
        let passed: Bool
        /// What onair concluded, in one line.
        let said: String
    }

    func verdict(_ corpusCase: CorpusCase, _ run: CorpusRun) throws -> Verdict {
        switch corpusCase.command {
        case .resolve: return resolveVerdict(corpusCase, run.steps[0])
        case .listen: return listenVerdict(corpusCase, run)
        case .podcast: return try podcastVerdict(corpusCase, add: run.steps[0], list: run.steps[1])
        case .guide: return try guideVerdict(corpusCase, import: run.steps[0], list: run.steps[1])
        case .icyMetadata: return icyVerdict(corpusCase, run.steps[0])
        }
    }

    // MARK: resolve

    private func resolveVerdict(_ corpusCase: CorpusCase, _ result: ProcessResult) -> Verdict {
        let said = Self.summary(result)
        guard !result.timedOut, !result.terminatedBySignal else { return Verdict(passed: false, said: said) }
        let answer = result.status == 0 ? Self.object(result.stdoutText) : nil
        // Words of the playlist's own file name in the error do not count as naming anything.
        let ownName = (corpusCase.artifact as NSString).lastPathComponent.lowercased()
        let error = result.stderrText.lowercased().replacingOccurrences(of: ownName, with: "<playlist>")
        let passed = corpusCase.outcomes.contains { outcome in
            if let stream = outcome.stream { return answer.map { Self.matches(stream, $0) } ?? false }
            if let refusal = outcome.refusal { return result.status == 1 && Self.matches(refusal, error, line: result.stderrText) }
            return false
        }
        return Verdict(passed: passed, said: said)
    }

    private static func matches(_ want: StreamExpectation, _ answer: [String: Any]) -> Bool {
        let url = answer["url"] as? String ?? ""
        let hls = answer["hls"] as? [String: Any] ?? [:]
        let dash = answer["dash"] as? [String: Any] ?? [:]
        let variants = (answer["variants"] as? [Any])?.count ?? 0
        let chosen = (answer["chosenVariant"] as? [String: Any])?["bandwidth"] as? Int
        let bitrate = answer["bitrate"] as? Int
        let checks: [Bool?] = [
            want.kind.map { answer["kind"] as? String == $0 },
            want.urlEndsWith.map { url.hasSuffix($0) },
            want.urlContains.map { url.contains($0) },
            want.urlContainsIgnoringCase.map { url.lowercased().contains($0.lowercased()) },
            want.urlContainsOneOf.map { $0.contains(where: url.contains) },
            want.variants.map { variants == $0 },
            want.variantsAtMost.map { variants <= $0 },
            want.chosenBandwidth.map { chosen == $0 },
            want.name.map { answer["name"] as? String == $0 },
            want.bitrate.map { bitrate == $0 },
            want.contentType.map { answer["contentType"] as? String == $0 },
            want.codec.map { sameCodec($0, answer["codec"] as? String) },
            want.bitrateRange.map { range in bitrate.map { range[0] <= $0 && $0 <= range[1] } ?? false },
            want.hls.map { $0.allSatisfy { $0.value.matches(hls[$0.key]) } },
            want.hlsWindowSeconds.map { abs(((hls["windowSeconds"] as? NSNumber)?.doubleValue ?? -1) - $0) <= 0.05 },
            want.dash.map { $0.allSatisfy { $0.value.matches(dash[$0.key]) } },
            want.dashRanges.map { ranges in
                ranges.allSatisfy { key, range in
                    guard let value = (dash[key] as? NSNumber)?.doubleValue else { return false }
                    return range[0] <= value && value <= range[1]
                }
            },
        ]
        return checks.allSatisfy { $0 ?? true }
    }

    /// The names a client may report instead of an RFC 6381 codecs string.
    private static let codecNames: [String: Set<String>] = [
        "mp4a.40.2": ["aac", "aac-lc", "aac lc", "lc-aac"],
        "mp4a.40.5": ["he-aac", "aac-he", "he-aacv1", "heaac", "he-aac v1"],
        "mp4a.40.29": ["he-aacv2", "he-aac v2", "aac-he-v2"],
        "ac-4": ["ac-4", "ac4"],
        "ec-3": ["e-ac-3", "eac3", "ec-3", "dd+"],
    ]

    private static func sameCodec(_ want: String, _ got: String?) -> Bool {
        guard let got = got?.lowercased() else { return false }
        let want = want.lowercased()
        if got == want { return true }
        return codecNames.contains { key, names in
            (want == key || want.hasPrefix(key + ".")) && (names.contains(got) || got == key)
        }
    }

    /// `text` is the lowered error with what must not count masked; `line` the error as printed.
    private static func matches(_ want: RefusalExpectation, _ text: String, line: String) -> Bool {
        let words = { (list: [String]?) in (list ?? []).map { $0.lowercased() } }
        guard words(want.naming).allSatisfy(text.contains),
              want.namingOneOf == nil || words(want.namingOneOf).contains(where: text.contains),
              !words(want.neverNaming).contains(where: text.contains) else { return false }
        let printed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if want.oneLine == true, printed.contains("\n") { return false }
        if let most = want.maxCharacters, printed.count > most { return false }
        return true
    }

    // MARK: listen

    private func listenVerdict(_ corpusCase: CorpusCase, _ run: CorpusRun) -> Verdict {
        let result = run.steps[0]
        // The segments it asked for: neither the MPD nor the stand-ins of other hosts.
        let segments = run.requests.filter { !$0.path.hasSuffix(".mpd") && !$0.path.contains("/_ext/") }
        let events = OnairBinary.events(result.stdoutText) + OnairBinary.events(result.stderrText)
        let decoding = events.first { $0["event"] as? String == "decoding" }
        var said = "exit \(result.status)\(result.timedOut ? " (timed out)" : ""); \(segments.count) segment requests"
        if !segments.isEmpty {
            said += ": " + segments.prefix(4).map { request in
                (request.path as NSString).lastPathComponent + (request.range.map { "[\($0.replacingOccurrences(of: "bytes=", with: ""))]" } ?? "")
            }.joined(separator: ", ")
        }
        said += decoding.map { "; decoding \($0["codec"] ?? "?") \($0["sampleRate"] ?? "?") Hz \($0["channels"] ?? "?") ch" } ?? "; no decoding event"
        for outcome in corpusCase.outcomes {
            if let edge = outcome.liveEdge {
                let (passed, note) = Self.judge(edge, segments)
                return Verdict(passed: passed, said: said + "; " + note)
            }
            guard result.succeeded, let inOrder = outcome.requestsInOrder else { continue }
            let paths = segments.map(\.path)
            var remaining = paths[...]
            let ordered = inOrder.allSatisfy { want in
                guard let index = remaining.firstIndex(where: { $0.contains(want) }) else { return false }
                remaining = paths[(index + 1)...]
                return true
            }
            let ranges = segments.compactMap { $0.range?.replacingOccurrences(of: "bytes=", with: "") }
            guard ordered,
                  !(outcome.neverRequests ?? []).contains(where: { never in paths.contains { $0.contains(never) } }),
                  (outcome.rangesStartingWith ?? []).allSatisfy({ want in ranges.contains { $0.hasPrefix(want) } }),
                  (outcome.decoding ?? [:]).allSatisfy({ decoding?[$0.key] as? Int == $0.value }) else { continue }
            return Verdict(passed: true, said: said)
        }
        return Verdict(passed: false, said: said)
    }

    /// ISO/IEC 23009-1 §5.3.9.5.3: segment k (from 0) is available from AST + (k+1)·d until
    /// AST + (k+1)·d + timeShiftBufferDepth + d; the first media request must ask for one available then.
    private static func judge(_ edge: LiveEdgeExpectation, _ requests: [CorpusServer.Request]) -> (Bool, String) {
        let numbered = try! NSRegularExpression(pattern: #"/(\d+)\.m4s$"#)
        let media = requests.lazy.compactMap { request -> (CorpusServer.Request, Int)? in
            guard request.path.contains(edge.pathContains),
                  let match = numbered.firstMatch(in: request.path, range: NSRange(request.path.startIndex..., in: request.path)),
                  let number = Int(request.path[Range(match.range(at: 1), in: request.path)!]) else { return nil }
            return (request, number)
        }.first
        guard let (request, number) = media else { return (false, "no media segment request under \(edge.pathContains)") }
        let start = utcDate(edge.availabilityStart)!
        let elapsed = request.time.timeIntervalSince(start)
        let newest = edge.startNumber + Int((elapsed / edge.segmentSeconds).rounded(.down)) - 1
        let oldest = edge.startNumber + Int(((elapsed - edge.timeShiftBufferSeconds) / edge.segmentSeconds).rounded(.down)) - 1
        return (oldest <= number && number <= newest, "first media Number \(number), available then \(oldest)...\(newest)")
    }

    // MARK: podcasts

    private func podcastVerdict(_ corpusCase: CorpusCase, add: ProcessResult, list: ProcessResult) throws -> Verdict {
        let episodes = Self.objects(list.stdoutText)
        var said = add.status == 0 ? "added; \(episodes.count) episodes" : "add exit \(add.status): \(Self.oneLine(add.stderrText))"
        if add.timedOut || add.terminatedBySignal { return Verdict(passed: false, said: said) }
        // Words of the feed's own URL or path do not count as naming anything.
        let error = add.stderrText.lowercased().replacingOccurrences(of: #"(https?://|/)\S+"#, with: "<url>", options: .regularExpression)
        var firstDifferences: String?
        for outcome in corpusCase.outcomes {
            if let refusal = outcome.refusal {
                if add.status == 1, Self.matches(refusal, error, line: add.stderrText) { return Verdict(passed: true, said: said) }
                continue
            }
            guard add.status == 0, list.succeeded else { continue }
            if let count = outcome.episodeCount, episodes.count == count { return Verdict(passed: true, said: said) }
            guard let file = outcome.episodes else { continue }
            let expected = try corpus.episodes(file)
            let differences = Self.differences(expected, episodes, nonAudioMayBeLeftOut: outcome.nonAudioMayBeLeftOut == true)
            if differences.isEmpty { return Verdict(passed: true, said: said) }
            firstDifferences = firstDifferences ?? "want \(expected.count): \(differences)"
        }
        if let firstDifferences { said += "; " + firstDifferences }
        return Verdict(passed: false, said: said)
    }

    private static func differences(_ expected: [ExpectedEpisode], _ got: [[String: Any]], nonAudioMayBeLeftOut: Bool) -> Differences {
        var differences = Differences()
        var byGUID: [String: Int] = [:], byURL: [String: Int] = [:]
        for (index, episode) in got.enumerated() {
            if let guid = episode["guid"] as? String, byGUID[guid] == nil { byGUID[guid] = index }
            if let url = episode["url"] as? String, byURL[url] == nil { byURL[url] = index }
        }
        var used = Set<Int>()
        for want in expected {
            let label = String((want.guid ?? want.url).suffix(60))
            guard let index = want.guid.flatMap({ byGUID[$0] }) ?? byURL[want.url] else {
                if !(nonAudioMayBeLeftOut && !(want.mimeType ?? "").hasPrefix("audio/")) { differences.add("missing", label) }
                continue
            }
            used.insert(index)
            let episode = got[index]
            if spaced(episode["title"] as? String) != spaced(want.title) {
                differences.add("title", "\(label): want '\(want.title)' got '\(episode["title"] as? String ?? "none")'")
            }
            if let guid = want.guid, episode["guid"] as? String != guid { differences.add("guid", "want \(guid) got \(episode["guid"] ?? "none")") }
            let published = (episode["published"] as? String).map(utcText)
            if published != want.published && !(want.published == nil && published != nil && published == want.publishedLenient) {
                differences.add("published", "\(label): want \(want.published ?? "none") got \(published ?? "none")")
            }
            let duration = (episode["duration"] as? NSNumber)?.doubleValue
            switch (want.durationSeconds, duration) {
            case (nil, nil): break
            case (let want?, let got?) where abs(got - want) <= 1: break
            default: differences.add("duration", "\(label): want \(want.durationSeconds.map { "\($0) s" } ?? "none") got \(duration.map { "\($0) s" } ?? "none")")
            }
            if episode["url"] as? String != want.url { differences.add("url", "want \(want.url) got \(episode["url"] ?? "none")") }
            let length = episode["length"] as? Int
            if !(length == want.length || (length == nil && want.lengthMayBeAbsent == true)) {
                differences.add("length", "\(label): want \(want.length) got \(length.map(String.init) ?? "none")")
            }
            if episode["mimeType"] as? String != want.mimeType {
                differences.add("type", "\(label): want \(want.mimeType ?? "none") got \(episode["mimeType"] ?? "none")")
            }
            if episode["chaptersURL"] as? String != want.chaptersURL {
                differences.add("chapters", "\(label): want \(want.chaptersURL ?? "none") got \(episode["chaptersURL"] ?? "none")")
            }
        }
        for (index, episode) in got.enumerated() where !used.contains(index) {
            differences.add("extra", String(((episode["guid"] ?? episode["url"]) as? String ?? "?").suffix(60)))
        }
        return differences
    }

    // MARK: guides

    private func guideVerdict(_ corpusCase: CorpusCase, import imported: ProcessResult, list: ProcessResult) throws -> Verdict {
        let broadcasts = Self.objects(list.stdoutText)
        var said: String
        if imported.status == 0 {
            let summary = Self.object(imported.stdoutText)
            said = "imported \(summary?["broadcasts"] ?? "?") broadcasts; \(broadcasts.count) listed"
            if list.status != 0 { said += " (guide exit \(list.status): \(Self.oneLine(list.stderrText)))" }
        } else {
            said = "import exit \(imported.status): \(Self.oneLine(imported.stderrText))"
        }
        var firstDifferences: String?
        for outcome in corpusCase.outcomes {
            guard imported.succeeded, list.succeeded, let file = outcome.broadcasts else { continue }
            let expected = try corpus.guideDay(file)
            let differences = Self.differences(expected, broadcasts)
            if differences.isEmpty { return Verdict(passed: true, said: said) }
            firstDifferences = firstDifferences ?? "want \(expected.broadcasts.count): \(differences)"
        }
        if let firstDifferences { said += "; " + firstDifferences }
        return Verdict(passed: false, said: said)
    }

    private static func differences(_ expected: ExpectedGuideDay, _ got: [[String: Any]]) -> Differences {
        var differences = Differences()
        let slot = { (broadcast: [String: Any]) in
            ExpectedGuideDay.Slot(channel: broadcast["channel"] as? String ?? "", start: (broadcast["start"] as? String).map(utcText) ?? "")
        }
        var index: [ExpectedGuideDay.Slot: Int] = [:]
        for (position, broadcast) in got.enumerated() {
            if index[slot(broadcast)] == nil { index[slot(broadcast)] = position }
            if let start = (broadcast["start"] as? String).map(utcText), let stop = (broadcast["stop"] as? String).map(utcText), stop <= start {
                differences.add("stop<=start", "\(broadcast["channel"] ?? "?") \(start)–\(stop) '\(broadcast["title"] ?? "")'")
            }
        }
        var used = Set<Int>()
        for want in expected.broadcasts {
            let label = "\(want.channel) \(want.start.dropFirst(11).prefix(5)) \((want.titles.first ?? "").prefix(30))"
            guard let position = index[ExpectedGuideDay.Slot(channel: want.channel, start: want.start)] else {
                differences.add("missing", label)
                continue
            }
            used.insert(position)
            let broadcast = got[position]
            let stop = (broadcast["stop"] as? String).map(utcText)
            if stop != want.stop { differences.add("stop", "\(label): want \(want.stop) got \(stop ?? "none")") }
            let title = spaced(broadcast["title"] as? String)
            if !want.titles.map(spaced).contains(title) { differences.add("title", "\(label): want '\(want.titles.first ?? "")' got '\(title)'") }
            if let subTitle = want.subTitle, spaced(broadcast["subTitle"] as? String) != spaced(subTitle) {
                differences.add("sub-title", "\(label): want '\(subTitle)' got '\(broadcast["subTitle"] as? String ?? "none")'")
            }
            let shown = broadcast["episode"] as? String
            if let episode = want.episode {
                let numbers = episodeNumbers(shown)
                if numbers == nil || (numbers!.season != nil && numbers!.season != want.season) || numbers!.episode != episode {
                    differences.add("episode", "\(label): want S\(want.season.map(String.init) ?? "?")E\(episode) got '\(shown ?? "none")'")
                }
            } else if let onscreen = want.onscreen, spaced(shown) != spaced(onscreen),
                      episodeNumbers(shown).map({ "\($0)" }) != episodeNumbers(onscreen).map({ "\($0)" }) {
                differences.add("episode", "\(label): want '\(onscreen)' got '\(shown ?? "none")'")
            }
        }
        let mayBeLeftOut = Set(expected.mayBeLeftOut)
        for (position, broadcast) in got.enumerated() where !used.contains(position) && !mayBeLeftOut.contains(slot(broadcast)) {
            differences.add("extra", "\(broadcast["channel"] ?? "?") \(broadcast["start"] ?? "?") '\(broadcast["title"] ?? "")'")
        }
        return differences
    }

    /// Season and episode as a guide may show them: S2E5, 2x5, "Season 2 Episode 5", or only E5.
    private static func episodeNumbers(_ text: String?) -> (season: Int?, episode: Int)? {
        let text = text ?? ""
        let range = NSRange(text.startIndex..., in: text)
        let number = { (match: NSTextCheckingResult, group: Int) in Int(text[Range(match.range(at: group), in: text)!])! }
        for pattern in [#"S(\d+)\s*E(\d+)"#, #"(\d+)x(\d+)"#, #"season\D*(\d+)\D+episode\D*(\d+)"#, #"sesong\D*(\d+)\D+episode\D*(\d+)"#] {
            if let match = try! NSRegularExpression(pattern: pattern, options: .caseInsensitive).firstMatch(in: text, range: range) {
                return (number(match, 1), number(match, 2))
            }
        }
        guard let match = try! NSRegularExpression(pattern: #"\bE(?:p|pisode)?\s*(\d+)"#, options: .caseInsensitive).firstMatch(in: text, range: range)
        else { return nil }
        return (nil, number(match, 1))
    }

    // MARK: ICY metadata

    private func icyVerdict(_ corpusCase: CorpusCase, _ result: ProcessResult) -> Verdict {
        let metadata = OnairBinary.events(result.stdoutText).filter { $0["event"] as? String == "metadata" }
        let title = metadata.first?["title"] as? String, url = metadata.first?["url"] as? String
        var said = metadata.isEmpty ? "no metadata event" : "title '\(title ?? "")'" + (url.map { ", url '\($0)'" } ?? "")
        guard result.succeeded else {
            said += " (exit \(result.status)\(result.timedOut ? ", timed out" : ""): \(Self.oneLine(result.stderrText)))"
            return Verdict(passed: false, said: said)
        }
        let passed = corpusCase.outcomes.contains { outcome in
            let titled = outcome.noTitle == true
                ? !metadata.contains { !($0["title"] as? String ?? "").isEmpty }
                : title != nil && title == outcome.title
            return titled && (outcome.streamURL.map { (url ?? "") == $0 } ?? true)
        }
        return Verdict(passed: passed, said: said)
    }

    // MARK: what a case expects, in words

    static func expected(_ corpusCase: CorpusCase) -> String {
        corpusCase.outcomes.map(describe).joined(separator: " — or ")
    }

    private static func describe(_ outcome: CorpusOutcome) -> String {
        var parts: [String] = []
        if let stream = outcome.stream {
            parts.append(stream.kind ?? "a stream")
            stream.urlEndsWith.map { parts.append("URL ends '\($0)'") }
            stream.urlContains.map { parts.append("URL has '\($0)'") }
            stream.urlContainsIgnoringCase.map { parts.append("URL has '\($0)' (any case)") }
            stream.urlContainsOneOf.map { parts.append("URL has one of \($0)") }
            stream.variants.map { parts.append("\($0) variants") }
            stream.variantsAtMost.map { parts.append("at most \($0) variants") }
            stream.chosenBandwidth.map { parts.append("chose \($0) bit/s") }
            stream.name.map { parts.append("name '\($0)'") }
            stream.bitrate.map { parts.append("\($0) kbit/s") }
            stream.bitrateRange.map { parts.append("\($0[0])–\($0[1]) kbit/s") }
            stream.codec.map { parts.append($0) }
            stream.contentType.map { parts.append($0) }
            stream.hls.map { parts.append("hls " + $0.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")) }
            stream.hlsWindowSeconds.map { parts.append("window \($0) s") }
            stream.dash.map { parts.append("dash " + $0.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")) }
            stream.dashRanges.map { parts.append($0.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value[0])…\($0.value[1])" }.joined(separator: ", ")) }
        }
        if let refusal = outcome.refusal {
            var words = "exit 1"
            refusal.naming.map { words += ", error names \($0.map { "'\($0)'" }.joined(separator: " and "))" }
            refusal.namingOneOf.map { words += ", error names one of \($0.map { "'\($0)'" }.joined(separator: ", "))" }
            refusal.neverNaming.map { words += ", never \($0.map { "'\($0)'" }.joined(separator: ", "))" }
            if refusal.oneLine == true { words += ", one line" }
            refusal.maxCharacters.map { words += " of at most \($0) characters" }
            parts.append(words)
        }
        outcome.episodes.map { parts.append("the episodes of \($0)" + (outcome.nonAudioMayBeLeftOut == true ? " (non-audio ones optional)" : "")) }
        outcome.episodeCount.map { parts.append("added with \($0) episodes") }
        outcome.broadcasts.map { parts.append("the broadcasts of \($0)") }
        outcome.requestsInOrder.map { parts.append("requests \($0.joined(separator: " then "))") }
        outcome.neverRequests.map { parts.append("never \($0.joined(separator: ", "))") }
        outcome.rangesStartingWith.map { parts.append("ranges \($0.joined(separator: ", "))") }
        outcome.decoding.map { parts.append("decoding " + $0.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")) }
        outcome.liveEdge.map { parts.append("first media segment under \($0.pathContains) available when asked for") }
        if outcome.noTitle == true { parts.append("no title") }
        outcome.title.map { parts.append("title '\($0)'") }
        outcome.streamURL.map { parts.append("url '\($0)'") }
        return parts.joined(separator: ", ")
    }

    // MARK: reading onair's output

    /// What onair said, in one line: the stream it resolved, or its exit status and error.
    private static func summary(_ result: ProcessResult) -> String {
        if result.timedOut { return "timed out: \(oneLine(result.stderrText))" }
        guard result.status == 0 else { return "exit \(result.status): \(oneLine(result.stderrText, limit: 240))" }
        guard let answer = object(result.stdoutText) else { return "exit 0, no JSON: \(oneLine(result.stdoutText, limit: 120))" }
        var parts = [answer["kind"] as? String ?? "?"]
        if let variants = answer["variants"] as? [Any] { parts.append("\(variants.count) variants") }
        if let chosen = answer["chosenVariant"] as? [String: Any] { parts.append("chose \(chosen["bandwidth"] ?? "?") bit/s") }
        for key in ["hls", "dash"] {
            if let details = answer[key] as? [String: Any] {
                parts.append("\(key) " + details.sorted { $0.key < $1.key }.map { "\($0.key) \(readable($0.value))" }.joined(separator: ", "))
            }
        }
        for key in ["codec", "name", "bitrate", "contentType"] {
            if let value = answer[key] { parts.append("\(key) \(value)") }
        }
        let url = answer["url"] as? String ?? ""
        parts.append("url …" + String((url.components(separatedBy: "127.0.0.1:").last ?? url).drop { $0 != "/" }.suffix(70)))
        return parts.joined(separator: "; ")
    }

    /// A JSON value as written: JSONSerialization gives a flag as an NSNumber, which prints as 0 or 1.
    private static func readable(_ value: Any) -> String {
        guard let number = value as? NSNumber, String(cString: number.objCType) == "c" else { return "\(value)" }
        return number.boolValue ? "true" : "false"
    }

    private static func object(_ text: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    }

    /// The JSON objects of a listing that prints one a line.
    private static func objects(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    private static func oneLine(_ text: String, limit: Int = 200) -> String {
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "\n", with: " ⏎ ")
        return line.count > limit ? "\(line.prefix(limit))… [\(line.count) chars]" : line
    }

    private static func spaced(_ text: String?) -> String {
        (text ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A date-time in any RFC 3339 form as UTC to the second ("2020-06-07T05:09:02Z"); other text as it is.
    static func utcText(_ text: String) -> String {
        utcDate(text).map { date in
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime]
            return formatter.string(from: date)
        } ?? text
    }

    private static func utcDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date.rounded }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}

/// Mismatches by kind, counted, with the first example of each.
struct Differences: CustomStringConvertible {
    private var counts: [(kind: String, count: Int, example: String)] = []

    var isEmpty: Bool { counts.isEmpty }

    mutating func add(_ kind: String, _ example: String) {
        if let index = counts.firstIndex(where: { $0.kind == kind }) { counts[index].count += 1 }
        else { counts.append((kind, 1, example)) }
    }

    var description: String { counts.map { "\($0.kind)×\($0.count) (\($0.example))" }.joined(separator: "; ") }
}

private extension Date {
    /// Down to the second, as the expectations are written.
    var rounded: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
