import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XMLInput

/// Reads an XMLTV document (the standard programme guide format, xmltv.dtd) with Foundation's
/// XMLParser: channels with their display names, programmes with start and stop (time zone offsets
/// included), titles, sub-titles, descriptions and categories in every language given, and episode
/// numbers. A programme without a channel or a valid start is skipped and noted; a document that is
/// not well-formed XML, or not XMLTV, is an error.
public enum XMLTVReader {
    public static func read(_ data: Data) throws(GuideError) -> XMLTVGuide {
        let collector = Collector()
        do {
            try CheckedXMLParser.parse(data, into: collector, limits: .guide)
        } catch {
            throw GuideError("not a valid XMLTV document: \(error)")
        }
        guard collector.sawRoot else { throw GuideError("not an XMLTV document: its root element is not <tv>") }
        var guide = collector.guide
        // A programme without a stop ends where the channel's next one starts; the last has no known end.
        var unknownEnd = Set<Int>()
        let byChannel = Dictionary(grouping: guide.programmes.indices, by: { guide.programmes[$0].channel })
        for indices in byChannel.values {
            let ordered = indices.sorted { guide.programmes[$0].start < guide.programmes[$1].start }
            for (position, index) in ordered.enumerated() where collector.withoutStop.contains(index) {
                if let next = ordered[(position + 1)...].first(where: { guide.programmes[$0].start > guide.programmes[index].start }) {
                    guide.programmes[index].stop = guide.programmes[next].start
                } else {
                    unknownEnd.insert(index)
                }
            }
        }
        for index in unknownEnd.sorted() {
            let programme = guide.programmes[index]
            guide.skipped.append("\(programme.titles.first?.text ?? "a programme") on \(programme.channel): no stop and no later programme")
        }
        // The same broadcast listed twice (grabbers' output merged; XMLTV's t/data/whitespace.xml, which tv_sort
        // reads as one programme) is one broadcast. A clump (clumpidx: two programmes in one slot) differs in title.
        var seen = Set<[String]>()
        guide.programmes = guide.programmes.indices.filter { index in
            let programme = guide.programmes[index]
            guard !unknownEnd.contains(index) else { return false }
            let key = [programme.channel, "\(programme.start.timeIntervalSince1970)", "\(programme.stop.timeIntervalSince1970)"]
                + programme.titles.map(\.text)
            if seen.insert(key).inserted { return true }
            guide.skipped.append("\(programme.titles.first?.text ?? "a programme") on \(programme.channel): listed twice")
            return false
        }.map { guide.programmes[$0] }
        return guide
    }

    /// XMLParser's delegate: keeps the element being read and the text inside it.
    private final class Collector: NSObject, XMLParserDelegate {
        var guide = XMLTVGuide()
        var sawRoot = false
        /// Programmes (by index) whose file gave no stop.
        var withoutStop = Set<Int>()
        private var depth = 0
        private var channel: XMLTVChannel?
        private var programme: XMLTVProgramme?
        private var programmeCount = 0
        private var programmeHasStop = true
        /// A text element of the current channel or programme: its name and attributes.
        private var field: (name: String, attributes: [String: String])?
        private var text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            depth += 1
            switch (depth, name) {
            case (1, "tv"): sawRoot = true
            case (2, "channel"):
                channel = XMLTVChannel(id: attributes["id"]?.trimmingCharacters(in: .whitespaces) ?? "", names: [])
            case (2, "programme"):
                programmeCount += 1
                let channelID = attributes["channel"]?.trimmingCharacters(in: .whitespaces) ?? ""
                guard !channelID.isEmpty else { return note("no channel") }
                guard let startText = attributes["start"], let start = XMLTVTime.parse(startText) else {
                    return note("no valid start (\(attributes["start"].map { "\"\($0.prefix(40))\"" } ?? "none"))")
                }
                var stop = start
                if let stopText = attributes["stop"] {
                    guard let value = XMLTVTime.parse(stopText) else { return note("no valid stop (\"\(stopText.prefix(40))\")") }
                    guard value > start else { return note("its stop is not after its start") }
                    stop = value
                }
                programme = XMLTVProgramme(channel: channelID, start: start, stop: stop)
                programmeHasStop = attributes["stop"] != nil
            case (3, "display-name") where channel != nil,
                 (3, "title") where programme != nil, (3, "sub-title") where programme != nil,
                 (3, "desc") where programme != nil, (3, "category") where programme != nil,
                 (3, "episode-num") where programme != nil:
                field = (name, attributes)
                text = ""
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if field != nil { text += string }
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            if field != nil { text += String(decoding: block, as: UTF8.self) }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            defer { depth -= 1 }
            if depth == 3, let (fieldName, attributes) = field, fieldName == name {
                field = nil
                var value = text.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !value.isEmpty else { return }
                // xmltv.dtd: in a desc "long bits of whitespace … are treated as equivalent to a single space".
                if name == "desc" { value = value.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
                let localized = LocalizedText(value, lang: attributes["lang"])
                switch name {
                case "display-name": channel?.names.append(localized)
                case "title": programme?.titles.append(localized)
                case "sub-title": programme?.subTitles.append(localized)
                case "desc": programme?.descriptions.append(localized)
                case "category": programme?.categories.append(localized)
                default: programme?.episodeNumbers.append(EpisodeNumber(system: attributes["system"] ?? "onscreen", value: value))
                }
            } else if depth == 2, name == "channel", let finished = channel {
                channel = nil
                if finished.id.isEmpty { guide.skipped.append("a channel without an id") } else { guide.channels.append(finished) }
            } else if depth == 2, name == "programme", let finished = programme {
                programme = nil
                guard !finished.titles.isEmpty else { return note("no title") }
                if !programmeHasStop { withoutStop.insert(guide.programmes.count) }
                guide.programmes.append(finished)
            }
        }

        private func note(_ why: String) {
            guide.skipped.append("programme \(programmeCount): \(why)")
        }
    }
}
