import Foundation
import RadioModel
import XMLInput
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads an MPD through XMLInput's `CheckedXMLParser` (libxml2's SAX parser behind the checks every
/// document from outside passes: no DTD, so no entity bomb, in any encoding; `XMLLimits.manifest`;
/// external entities never loaded). Inheritance — SegmentTemplate attributes from Period to AdaptationSet
/// to Representation, BaseURL at every level — is settled here, so the rest of the follower sees flat
/// representations whose URLs are absolute and http(s): a remote MPD can never lead to a local file.
/// Errors are `PlaylistError`s, one line naming the MPD (and the line, when XML parsing failed there).
public enum MPDParser {
    public static let maxBytes = 2 << 20
    static let maxPeriods = 1000
    static let maxTimelineEntries = 100_000

    /// Whether a response is an MPD, by media type, path or first bytes.
    public static func isMPD(mediaType: String?, url: String, body: Data) -> Bool {
        if mediaType == "application/dash+xml" { return true }
        if (URL(string: url)?.path ?? "").lowercased().hasSuffix(".mpd") { return true }
        let start = String(decoding: body.prefix(512), as: UTF8.self)
        return start.contains("<MPD") && start.contains("urn:mpeg:dash:schema:mpd")
    }

    public static func parse(_ body: Data, url: String) throws -> MPD {
        guard body.count <= maxBytes else { throw PlaylistError(url: url, line: nil, message: "MPD larger than \(maxBytes) bytes") }
        // FoundationXML traps on a name or attribute that is not UTF-8 (found by the mpd fuzz target);
        // CheckedXMLParser refuses those too, but every MPD onair has met is UTF-8, and this line is plainer.
        guard String(validating: body, as: UTF8.self) != nil else {
            throw PlaylistError(url: url, line: nil, message: "the MPD is not UTF-8 text")
        }
        let reader = MPDReader(url: url)
        do {
            try CheckedXMLParser.parse(body, into: reader, limits: .manifest)
        } catch {
            // The reader's own reason (not an MPD, too many periods, the line where the XML broke) is plainer.
            throw reader.error ?? PlaylistError(url: url, line: nil, message: "not a valid MPD: \(error)")
        }
        if let error = reader.error { throw error }
        return try reader.finish()
    }
}

/// The SAX side of `MPDParser`: collects layers as elements open and close.
private final class MPDReader: NSObject, XMLParserDelegate {
    /// Attributes of a SegmentTemplate at one level, and its timeline if it has one.
    struct TemplateLayer {
        var attributes: [String: String] = [:]
        var timeline: [MPD.TimelineEntry]?
    }

    struct Level {
        var attributes: [String: String] = [:]
        var baseURL: String?
        var template: TemplateLayer?
        var segmentBaseOrList = false
        var contentComponentType: String?
    }

    struct PendingPeriod {
        var level: Level
        var adaptationSets: [(level: Level, representations: [Level])] = []
    }

    let url: String
    var error: PlaylistError?
    private var path: [String] = []
    private var text = ""
    private var mpd: Level?
    private var periods: [PendingPeriod] = []
    private var adaptationSet: Level?
    private var representations: [Level] = []
    private var representation: Level?
    private var utcTimings: [MPD.UTCTiming] = []
    private var timelineEntries = 0

    init(url: String) { self.url = url }

    private func fail(_ message: String, _ parser: XMLParser) {
        guard error == nil else { return }
        error = PlaylistError(url: url, line: parser.lineNumber, message: message)
        parser.abortParsing()
    }

    /// The innermost open level among MPD, Period, AdaptationSet and Representation.
    private func withCurrentLevel(_ body: (inout Level) -> Void) {
        if representation != nil { body(&representation!) }
        else if adaptationSet != nil { body(&adaptationSet!) }
        else if !periods.isEmpty, path.contains("Period") { body(&periods[periods.count - 1].level) }
        else if mpd != nil { body(&mpd!) }
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        let name = elementName.split(separator: ":").last.map(String.init) ?? elementName
        let parent = path.last
        path.append(name)
        text = ""
        switch name {
        case "MPD" where parent == nil:
            mpd = Level(attributes: attributes)
        case _ where mpd == nil:
            fail("the document is not an MPD (its root is <\(path.first ?? name)>)", parser)
        case "Period" where parent == "MPD":
            guard periods.count < MPDParser.maxPeriods else { return fail("more than \(MPDParser.maxPeriods) periods", parser) }
            periods.append(PendingPeriod(level: Level(attributes: attributes)))
        case "AdaptationSet" where parent == "Period":
            adaptationSet = Level(attributes: attributes)
            representations = []
        case "ContentComponent" where parent == "AdaptationSet":
            if adaptationSet?.contentComponentType == nil { adaptationSet?.contentComponentType = attributes["contentType"] }
        case "Representation" where parent == "AdaptationSet":
            representation = Level(attributes: attributes)
        case "SegmentTemplate" where ["Period", "AdaptationSet", "Representation"].contains(parent):
            withCurrentLevel { $0.template = TemplateLayer(attributes: attributes) }
        case "SegmentBase", "SegmentList":
            withCurrentLevel { $0.segmentBaseOrList = true }
        case "SegmentTimeline" where parent == "SegmentTemplate":
            withCurrentLevel { $0.template?.timeline = [] }
        case "S" where parent == "SegmentTimeline":
            timelineEntries += 1
            guard timelineEntries <= MPDParser.maxTimelineEntries else {
                return fail("more than \(MPDParser.maxTimelineEntries) SegmentTimeline entries", parser)
            }
            guard let duration = attributes["d"].flatMap(Int64.init), duration > 0 else {
                return fail("<S> without a positive d", parser)
            }
            let time = attributes["t"].flatMap(Int64.init)
            let repeatCount = attributes["r"].flatMap(Int64.init) ?? 0
            guard (attributes["t"] == nil || time.map({ $0 >= 0 }) == true), repeatCount >= -1 else {
                return fail("<S> with a t or r out of range", parser)
            }
            withCurrentLevel { $0.template?.timeline?.append(MPD.TimelineEntry(time: time, duration: duration, repeatCount: repeatCount)) }
        case "UTCTiming" where parent == "MPD":
            if let timing = Self.utcTiming(attributes) { utcTimings.append(timing) }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if path.last == "BaseURL" { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        let name = path.popLast()
        switch name {
        case "BaseURL":
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            // The first BaseURL of a level wins; the others are mirrors onair does not switch to.
            switch path.last {
            case "Representation": if representation?.baseURL == nil { representation?.baseURL = value }
            case "AdaptationSet": if adaptationSet?.baseURL == nil { adaptationSet?.baseURL = value }
            case "Period":
                if let last = periods.indices.last, periods[last].level.baseURL == nil { periods[last].level.baseURL = value }
            case "MPD": if mpd?.baseURL == nil { mpd?.baseURL = value }
            default: break
            }
        case "Representation" where path.last == "AdaptationSet":
            if let representation { representations.append(representation) }
            representation = nil
        case "AdaptationSet" where path.last == "Period":
            if let adaptationSet, let last = periods.indices.last { periods[last].adaptationSets.append((adaptationSet, representations)) }
            adaptationSet = nil
            representations = []
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        if error == nil {
            error = PlaylistError(url: url, line: parser.lineNumber, message: "not well-formed XML")
        }
    }

    private static func utcTiming(_ attributes: [String: String]) -> MPD.UTCTiming? {
        guard let scheme = attributes["schemeIdUri"], let value = attributes["value"] else { return nil }
        switch scheme {
        case "urn:mpeg:dash:utc:http-iso:2014", "urn:mpeg:dash:utc:http-xsdate:2014",
             "urn:mpeg:dash:utc:http-iso:2012", "urn:mpeg:dash:utc:http-xsdate:2012":
            return MPD.UTCTiming(scheme: .httpISO, value: value)
        case "urn:mpeg:dash:utc:http-head:2014", "urn:mpeg:dash:utc:http-head:2012":
            return MPD.UTCTiming(scheme: .httpHead, value: value)
        case "urn:mpeg:dash:utc:direct:2014", "urn:mpeg:dash:utc:direct:2012":
            return MPD.UTCTiming(scheme: .direct, value: value)
        default:
            return nil
        }
    }

    // MARK: Settling inheritance

    func finish() throws -> MPD {
        guard let mpd else { throw PlaylistError(url: url, line: nil, message: "the document is not an MPD") }
        let attributes = mpd.attributes
        let type: MPD.PresentationType
        switch attributes["type"] ?? "static" {
        case "static": type = .static
        case "dynamic": type = .dynamic
        case let other: throw PlaylistError(url: url, line: nil, message: "MPD@type '\(other.prefix(40))' is neither static nor dynamic")
        }
        let availabilityStart = try date(attributes, "availabilityStartTime")
        if type == .dynamic, availabilityStart == nil {
            throw PlaylistError(url: url, line: nil, message: "a dynamic MPD without availabilityStartTime")
        }
        let mpdBase = try resolve(mpd.baseURL, against: url)
        var result = MPD(url: url, type: type, availabilityStartTime: availabilityStart, publishTime: try date(attributes, "publishTime"),
                         mediaPresentationDuration: try duration(attributes, "mediaPresentationDuration"),
                         minimumUpdatePeriod: try duration(attributes, "minimumUpdatePeriod"),
                         timeShiftBufferDepth: try duration(attributes, "timeShiftBufferDepth"),
                         suggestedPresentationDelay: try duration(attributes, "suggestedPresentationDelay"),
                         maxSegmentDuration: try duration(attributes, "maxSegmentDuration"),
                         periods: [], utcTimings: utcTimings)
        for period in periods {
            let periodBase = try resolve(period.level.baseURL, against: mpdBase)
            var representations: [MPD.Representation] = []
            for (set, members) in period.adaptationSets where Self.isAudio(set) {
                let setBase = try resolve(set.baseURL, against: periodBase)
                for member in members {
                    guard Self.isAudio(member, in: set) else { continue }
                    representations.append(try representation(member, in: set, period: period.level, base: setBase))
                }
            }
            result.periods.append(MPD.Period(id: period.level.attributes["id"], start: try duration(period.level.attributes, "start"),
                                             duration: try duration(period.level.attributes, "duration"),
                                             representations: representations))
        }
        return result
    }

    private func representation(_ member: Level, in set: Level, period: Level, base: String) throws -> MPD.Representation {
        let inherited = { (key: String) in member.attributes[key] ?? set.attributes[key] }
        let layers = [period.template, set.template, member.template].compactMap { $0 }
        let usesOtherAddressing = member.segmentBaseOrList || (member.template == nil && set.segmentBaseOrList)
        return MPD.Representation(
            id: member.attributes["id"] ?? "",
            bandwidth: member.attributes["bandwidth"].flatMap { Int($0) } ?? 0,
            mimeType: inherited("mimeType"), codecs: inherited("codecs"),
            audioSamplingRate: inherited("audioSamplingRate").flatMap { Int($0.split(separator: " ").first ?? "") },
            qualityRanking: member.attributes["qualityRanking"].flatMap { Int($0) },
            baseURL: try resolve(member.baseURL, against: base),
            template: layers.isEmpty || usesOtherAddressing ? nil : try template(merging: layers))
    }

    private func template(merging layers: [TemplateLayer]) throws -> MPD.SegmentTemplate {
        var attributes: [String: String] = [:]
        for layer in layers { attributes.merge(layer.attributes) { _, inner in inner } }
        func integer(_ key: String) throws -> Int64? {
            guard let text = attributes[key] else { return nil }
            guard let value = Int64(text), value >= 0 else {
                throw PlaylistError(url: url, line: nil, message: "SegmentTemplate@\(key) '\(text.prefix(40))' is not a whole number")
            }
            return value
        }
        var template = MPD.SegmentTemplate()
        template.media = attributes["media"]
        template.initialization = attributes["initialization"]
        template.startNumber = Int(clamping: try integer("startNumber") ?? 1)
        template.timescale = Int(clamping: try integer("timescale") ?? 1)
        guard template.timescale > 0 else { throw PlaylistError(url: url, line: nil, message: "SegmentTemplate@timescale is 0") }
        template.duration = try integer("duration")
        if template.duration == 0 { throw PlaylistError(url: url, line: nil, message: "SegmentTemplate@duration is 0") }
        template.presentationTimeOffset = try integer("presentationTimeOffset") ?? 0
        if let offset = attributes["availabilityTimeOffset"] {
            template.availabilityTimeOffset = offset == "INF" ? .infinity : max(0, Double(offset) ?? 0)
        }
        template.availabilityTimeComplete = attributes["availabilityTimeComplete"] != "false"
        template.timeline = layers.last { $0.timeline != nil }?.timeline
        return template
    }

    /// An adaptation set (or a representation in it) carries audio: by contentType, mimeType or codecs.
    private static func isAudio(_ level: Level, in set: Level? = nil) -> Bool {
        let contentType = level.attributes["contentType"] ?? level.contentComponentType
        if let contentType { return contentType == "audio" }
        if let mimeType = level.attributes["mimeType"] { return mimeType.hasPrefix("audio/") }
        if let codecs = level.attributes["codecs"] {
            return codecs.split(separator: ",").allSatisfy { HLSCodecs.name(forTag: $0.trimmingCharacters(in: .whitespaces)) != nil }
        }
        // Nothing said at this level: a representation takes its set's word, a set its members'.
        return set != nil
    }

    private func resolve(_ reference: String?, against base: String) throws -> String {
        guard let reference, !reference.isEmpty else { return base }
        do {
            return try PlaylistParser.absolute(reference, line: 0, base: URL(string: base)!, url: url)
        } catch {
            throw PlaylistError(url: url, line: nil, message: "BaseURL '\(reference.prefix(80))' is not an http(s) URL")
        }
    }

    private func date(_ attributes: [String: String], _ key: String) throws -> Date? {
        guard let text = attributes[key] else { return nil }
        guard let date = Timestamp.parse(text) else {
            throw PlaylistError(url: url, line: nil, message: "MPD@\(key) '\(text.prefix(40))' is not an xs:dateTime")
        }
        return date
    }

    private func duration(_ attributes: [String: String], _ key: String) throws -> Double? {
        guard let text = attributes[key] else { return nil }
        guard let seconds = XSDuration.seconds(text) else {
            throw PlaylistError(url: url, line: nil, message: "@\(key) '\(text.prefix(40))' is not an xs:duration")
        }
        return seconds
    }
}

/// xs:duration as MPDs write it: `PT1.92S`, `PT2H`, `P1DT0H0M0S`. A year is 365 days and a month 30:
/// MPDs use them only for unbounded depths, where the difference does not matter.
enum XSDuration {
    static func seconds(_ text: String) -> Double? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        var total = 0.0
        var inTime = false
        var number = ""
        var sawComponent = false
        for ch in rest {
            if ch == "T" {
                guard !inTime, number.isEmpty else { return nil }
                inTime = true
                continue
            }
            if ch.isASCII, ch.isNumber || ch == "." {
                number.append(ch)
                continue
            }
            guard let value = Double(number), value.isFinite else { return nil }
            let unit: Double
            switch (inTime, ch) {
            case (false, "Y"): unit = 365 * 86400
            case (false, "M"): unit = 30 * 86400
            case (false, "W"): unit = 7 * 86400
            case (false, "D"): unit = 86400
            case (true, "H"): unit = 3600
            case (true, "M"): unit = 60
            case (true, "S"): unit = 1
            default: return nil
            }
            total += value * unit
            number = ""
            sawComponent = true
        }
        guard sawComponent, number.isEmpty, total.isFinite else { return nil }
        return total
    }
}
