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
        return start.contains("<MPD") && start.lowercased().contains("urn:mpeg:dash:schema:mpd")
    }

    public static func parse(_ body: Data, url: String) throws -> MPD {
        guard body.count <= maxBytes else { throw PlaylistError(url: url, line: nil, message: "MPD larger than \(maxBytes) bytes") }
        // FoundationXML traps on a name or attribute that is not UTF-8 (found by the mpd fuzz target);
        // CheckedXMLParser refuses those too, but every MPD onair has met is UTF-8, and this line is plainer.
        guard String(validating: body, as: UTF8.self) != nil else {
            throw PlaylistError(url: url, line: nil, message: "the MPD is not UTF-8 text")
        }
        do {
            return try read(body, url: url)
        } catch {
            // libxml2 refuses a prefix nobody declared (YouTube's yt:, MediaPackage's scte35:), though
            // the document is well-formed and every DASH player reads it: declare them and read again.
            guard let (declared, prefixes) = UndeclaredPrefixes.declared(in: body), var mpd = try? read(declared, url: url) else {
                throw error
            }
            mpd.warnings.insert("the MPD uses namespace prefixes it never declares (\(prefixes.joined(separator: ", "))); read leniently", at: 0)
            return mpd
        }
    }

    private static func read(_ body: Data, url: String) throws -> MPD {
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

/// Namespace prefixes an MPD uses in element or attribute names without declaring them.
enum UndeclaredPrefixes {
    /// More than this many is not an MPD with a stray vendor attribute.
    static let maxPrefixes = 8

    /// The document with a declaration of each such prefix added to its root element (a namespace of our
    /// own: nothing onair reads is in it), and the prefixes; nil when there are none (or too many).
    static func declared(in body: Data) -> (Data, [String])? {
        let (declared, prefixes) = MarkupScan.declaringUndeclared(in: body) { prefix in
            isName(prefix) && !["xml", "xmlns"].contains(prefix.lowercased()) ? "urn:onair:undeclared:\(prefix)" : nil
        }
        guard !prefixes.isEmpty, prefixes.count <= maxPrefixes else { return nil }
        return (declared, prefixes)
    }

    /// An XML name's ASCII form, so that what is declared, and named in the warning, is a prefix and nothing else.
    private static func isName(_ prefix: String) -> Bool {
        guard let first = prefix.unicodeScalars.first, first == "_" || first.properties.isAlphabetic && first.isASCII else { return false }
        return prefix.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_.-".unicodeScalars.contains($0)) }
    }
}

/// The SAX side of `MPDParser`: collects layers as elements open and close.
private final class MPDReader: NSObject, XMLParserDelegate {
    static let namespace = "urn:mpeg:dash:schema:mpd:2011"

    /// The three ways an MPD addresses segments, in the order one level prefers them.
    enum Addressing: String, CaseIterable {
        case template = "SegmentTemplate", list = "SegmentList", base = "SegmentBase"
    }

    /// A SegmentTemplate, SegmentList or SegmentBase at one level: its attributes and children.
    struct AddressingLayer {
        var attributes: [String: String] = [:]
        var timeline: [MPD.TimelineEntry]?
        /// `<Initialization>` (SegmentList, SegmentBase).
        var initialization: [String: String]?
        /// `<SegmentURL>`s (SegmentList).
        var segmentURLs: [[String: String]]?
    }

    struct Level {
        var attributes: [String: String] = [:]
        var baseURL: String?
        var addressing: [Addressing: AddressingLayer] = [:]
        var contentComponentType: String?
        /// ContentProtection, named by value (cenc) or by the DRM system its schemeIdUri stands for.
        var protection: [String] = []
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
    /// The first MPD@Location, as written.
    private var location: String?
    /// SegmentTimeline entries and SegmentURLs so far, bounded together.
    private var listedEntries = 0
    private var warnings: [String] = []

    init(url: String) { self.url = url }

    private func fail(_ message: String, _ parser: XMLParser) {
        guard error == nil else { return }
        error = PlaylistError(url: url, line: parser.lineNumber, message: message)
        parser.abortParsing()
    }

    private func warn(_ message: String) {
        if warnings.count < 10, !warnings.contains(message) { warnings.append(message) }
    }

    /// The innermost open level among MPD, Period, AdaptationSet and Representation.
    private func withCurrentLevel(_ body: (inout Level) -> Void) {
        if representation != nil { body(&representation!) }
        else if adaptationSet != nil { body(&adaptationSet!) }
        else if !periods.isEmpty, path.contains("Period") { body(&periods[periods.count - 1].level) }
        else if mpd != nil { body(&mpd!) }
    }

    /// The addressing element `name` open at the current level.
    private func withOpenAddressing(_ name: String?, _ body: (inout AddressingLayer) -> Void) {
        guard let kind = name.flatMap(Addressing.init(rawValue:)) else { return }
        withCurrentLevel { level in
            if level.addressing[kind] != nil { body(&level.addressing[kind]!) }
        }
    }

    private func countEntry(_ parser: XMLParser) -> Bool {
        listedEntries += 1
        guard listedEntries <= MPDParser.maxTimelineEntries else {
            fail("more than \(MPDParser.maxTimelineEntries) SegmentTimeline entries and SegmentURLs", parser)
            return false
        }
        return true
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
        case "ContentProtection" where parent == "AdaptationSet" || parent == "Representation":
            withCurrentLevel { $0.protection.append(Self.protectionName(attributes)) }
        case "Representation" where parent == "AdaptationSet":
            representation = Level(attributes: attributes)
        case _ where Addressing(rawValue: name) != nil && ["Period", "AdaptationSet", "Representation"].contains(parent):
            withCurrentLevel { $0.addressing[Addressing(rawValue: name)!] = AddressingLayer(attributes: attributes) }
        case "SegmentTimeline" where parent == "SegmentTemplate" || parent == "SegmentList":
            withOpenAddressing(parent) { $0.timeline = [] }
        case "S" where parent == "SegmentTimeline":
            guard countEntry(parser) else { return }
            do {
                guard let duration = try wholeNumber(attributes["d"], "S@d"), duration > 0 else {
                    return fail("<S> without a positive d", parser)
                }
                let time = try wholeNumber(attributes["t"], "S@t")
                let repeatCount = try wholeNumber(attributes["r"], "S@r", allowsMinusOne: true) ?? 0
                withOpenAddressing(path.dropLast(2).last) {
                    $0.timeline?.append(MPD.TimelineEntry(time: time, duration: duration, repeatCount: repeatCount))
                }
            } catch {
                fail((error as? PlaylistError)?.message ?? "\(error)", parser)
            }
        case "Initialization" where parent == "SegmentList" || parent == "SegmentBase":
            withOpenAddressing(parent) { $0.initialization = attributes }
        case "SegmentURL" where parent == "SegmentList":
            guard countEntry(parser) else { return }
            withOpenAddressing(parent) { $0.segmentURLs = ($0.segmentURLs ?? []) + [attributes] }
        case "UTCTiming" where parent == "MPD":
            if let timing = Self.utcTiming(attributes) { utcTimings.append(timing) }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if path.last == "BaseURL" || path.last == "Location" { text += string }
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
        case "Location" where path.last == "MPD":
            if location == nil { location = text.trimmingCharacters(in: .whitespacesAndNewlines) }
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

    /// DASH-IF's identifiers of the DRM systems an audio client meets (dashif.org/identifiers/content_protection).
    private static let drmSystems = [
        "edef8ba9-79d6-4ace-a3c8-27dcd51d21ed": "Widevine", "9a04f079-9840-4286-ab92-e65be0885f95": "PlayReady",
        "94ce86fb-07ff-4f43-adb8-93d2fa968ca2": "FairPlay", "e2719d58-a985-b3c9-781a-b030af78d30e": "ClearKey",
        "1077efec-c0b2-4d02-ace3-3c1e52e2fb4b": "ClearKey", "f239e769-efa3-4850-9c16-a903c6932efb": "PrimeTime",
    ]

    private static func protectionName(_ attributes: [String: String]) -> String {
        let scheme = (attributes["schemeIdUri"] ?? "").lowercased()
        if let system = drmSystems[String(scheme.dropFirst("urn:uuid:".count))], scheme.hasPrefix("urn:uuid:") { return system }
        return String((attributes["value"] ?? attributes["schemeIdUri"] ?? "unnamed").prefix(40))
    }

    /// Codecs FFmpeg has no decoder for, by RFC 6381 prefix, and what a person calls them.
    private static let undecodableCodecs = [("ac-4", "AC-4"), ("mha1", "MPEG-H 3D Audio"), ("mha2", "MPEG-H 3D Audio"),
                                            ("mhm1", "MPEG-H 3D Audio"), ("mhm2", "MPEG-H 3D Audio"), ("dtsx", "DTS:X")]

    // MARK: Settling inheritance

    func finish() throws -> MPD {
        guard let mpd else { throw PlaylistError(url: url, line: nil, message: "the document is not an MPD") }
        let attributes = mpd.attributes
        checkNamespace(attributes)
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
                         periods: [], location: try location.map { try resolve($0, against: url, construct: "Location") },
                         utcTimings: utcTimings)
        for period in periods {
            let periodBase = try resolve(period.level.baseURL, against: mpdBase)
            var representations: [MPD.Representation] = []
            for (set, members) in period.adaptationSets where Self.isAudio(set) ?? members.contains(where: { Self.isAudio($0) == true }) {
                let setBase = try resolve(set.baseURL, against: periodBase)
                for member in members where Self.isAudio(member) ?? true {
                    representations.append(try representation(member, in: set, period: period.level, base: setBase))
                }
            }
            result.periods.append(MPD.Period(id: period.level.attributes["id"], start: try duration(period.level.attributes, "start"),
                                             duration: try duration(period.level.attributes, "duration"),
                                             representations: representations))
        }
        result.warnings = warnings
        return result
    }

    /// The DASH namespace, missing or in another letter case (captures and hand-written MPDs), is read with a warning.
    private func checkNamespace(_ attributes: [String: String]) {
        let declared = attributes.filter { $0.key == "xmlns" || $0.key.hasPrefix("xmlns:") }.map(\.value)
        if declared.contains(Self.namespace) { return }
        if let other = declared.first(where: { $0.lowercased() == Self.namespace }) {
            warn("the MPD's namespace '\(other)' differs in letter case from \(Self.namespace); read leniently")
        } else {
            warn("the MPD has no DASH namespace (\(Self.namespace)); read leniently")
        }
    }

    private func representation(_ member: Level, in set: Level, period: Level, base: String) throws -> MPD.Representation {
        let inherited = { (key: String) in member.attributes[key] ?? set.attributes[key] }
        let levels = [period, set, member]
        let ownBase = try resolve(member.baseURL, against: base)
        var result = MPD.Representation(
            id: member.attributes["id"] ?? "",
            bandwidth: Int(clamping: try wholeNumber(member.attributes["bandwidth"], "Representation@bandwidth") ?? 0),
            mimeType: inherited("mimeType"), codecs: inherited("codecs"),
            audioSamplingRate: inherited("audioSamplingRate").flatMap { Int($0.split(separator: " ").first ?? "") },
            qualityRanking: member.attributes["qualityRanking"].flatMap { Int($0) },
            baseURL: ownBase, template: nil)
        result.refusal = refusal(of: result, protection: set.protection + member.protection)
        // The innermost level that says how segments are addressed decides how; the outer ones give defaults.
        let kind = levels.reversed().lazy.compactMap { level in Addressing.allCases.first { level.addressing[$0] != nil } }.first
        let layers = levels.compactMap { level in kind.flatMap { level.addressing[$0] } }
        switch kind {
        case .template?:
            result.template = try template(merging: layers)
        case .list?:
            (result.template, result.refusal) = try segmentList(merging: layers, base: ownBase, refusal: result.refusal)
        case .base?:
            result.segmentBase = try segmentBase(merging: layers, base: ownBase)
            if result.segmentBase == nil { result.template = Self.wholeResource(ownBase) }
        case nil:
            result.template = Self.wholeResource(ownBase)
        }
        return result
    }

    /// Why a representation cannot be played, if it cannot.
    private func refusal(of representation: MPD.Representation, protection: [String]) -> String? {
        if !protection.isEmpty {
            var names: [String] = []
            for name in protection where !names.contains(name) { names.append(name) }
            return "the audio is encrypted (ContentProtection: \(names.joined(separator: ", "))): DRM-protected audio onair cannot play"
        }
        let codecs = (representation.codecs ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let unknown = codecs.compactMap { codec in Self.undecodableCodecs.first { codec.hasPrefix($0.0) } }
        if !codecs.isEmpty, unknown.count == codecs.count, let first = unknown.first {
            return "the audio is \(first.1) (\(codecs.joined(separator: ", ").prefix(60))), which FFmpeg cannot decode"
        }
        return nil
    }

    /// A representation addressed by its BaseURL alone: the whole resource is one segment as long as the period.
    private static func wholeResource(_ url: String) -> MPD.SegmentTemplate {
        var template = MPD.SegmentTemplate()
        template.listed = [MPD.ListedSegment(url: url, byteRange: nil)]
        return template
    }

    private func merged(_ layers: [AddressingLayer]) -> AddressingLayer {
        var result = AddressingLayer()
        for layer in layers {
            result.attributes.merge(layer.attributes) { _, inner in inner }
            result.timeline = layer.timeline ?? result.timeline
            result.initialization = layer.initialization ?? result.initialization
            result.segmentURLs = layer.segmentURLs ?? result.segmentURLs
        }
        return result
    }

    /// What SegmentTemplate and SegmentList share (MultipleSegmentBaseType): numbering and timing.
    private func timing(_ layer: AddressingLayer, _ construct: String) throws -> MPD.SegmentTemplate {
        let attributes = layer.attributes
        var template = MPD.SegmentTemplate()
        template.startNumber = Int(clamping: try wholeNumber(attributes["startNumber"], "\(construct)@startNumber") ?? 1)
        // A follower adds segment counts to it (`PlaylistParser.largestNumber`).
        guard template.startNumber <= PlaylistParser.largestNumber else {
            throw PlaylistError(url: url, line: nil, message: "\(construct)@startNumber is past 2^53")
        }
        template.timescale = Int(clamping: try wholeNumber(attributes["timescale"], "\(construct)@timescale") ?? 1)
        guard template.timescale > 0 else { throw PlaylistError(url: url, line: nil, message: "\(construct)@timescale is 0") }
        template.duration = try wholeNumber(attributes["duration"], "\(construct)@duration")
        if template.duration == 0 { throw PlaylistError(url: url, line: nil, message: "\(construct)@duration is 0") }
        template.presentationTimeOffset = try wholeNumber(attributes["presentationTimeOffset"], "\(construct)@presentationTimeOffset") ?? 0
        if let offset = attributes["availabilityTimeOffset"] {
            template.availabilityTimeOffset = offset == "INF" ? .infinity : max(0, Double(offset) ?? 0)
        }
        template.availabilityTimeComplete = attributes["availabilityTimeComplete"] != "false"
        template.timeline = layer.timeline
        return template
    }

    private func template(merging layers: [AddressingLayer]) throws -> MPD.SegmentTemplate {
        let layer = merged(layers)
        var template = try timing(layer, "SegmentTemplate")
        template.media = layer.attributes["media"]
        template.initialization = layer.attributes["initialization"]
        return template
    }

    /// A SegmentList's segments, and the representation's refusal (a list of several segments needs their durations).
    private func segmentList(merging layers: [AddressingLayer], base: String,
                             refusal: String?) throws -> (MPD.SegmentTemplate, String?) {
        let layer = merged(layers)
        var template = try timing(layer, "SegmentList")
        template.listed = try (layer.segmentURLs ?? []).map { segment in
            MPD.ListedSegment(url: try resolve(segment["media"], against: base, construct: "SegmentURL@media"),
                              byteRange: try byteRange(segment["mediaRange"], "SegmentURL@mediaRange"))
        }
        if let initialization = layer.initialization {
            template.initializationRange = try byteRange(initialization["range"], "Initialization@range")
            template.initialization = try resolve(initialization["sourceURL"], against: base, construct: "Initialization@sourceURL")
        }
        if (template.listed?.count ?? 0) > 1, template.duration == nil, template.timeline == nil {
            return (template, refusal ?? "the audio's SegmentList gives no duration and no SegmentTimeline, so its segments cannot be placed")
        }
        return (template, refusal)
    }

    /// SegmentBase with an indexRange; nil without one (the whole file is then one segment).
    private func segmentBase(merging layers: [AddressingLayer], base: String) throws -> MPD.SegmentBase? {
        let layer = merged(layers)
        guard let indexRange = try byteRange(layer.attributes["indexRange"], "SegmentBase@indexRange") else { return nil }
        guard indexRange.length <= SegmentIndex.maxIndexBytes else {
            throw PlaylistError(url: url, line: nil, message: "SegmentBase@indexRange spans more than \(SegmentIndex.maxIndexBytes) bytes")
        }
        var segmentBase = MPD.SegmentBase(url: base, indexRange: indexRange)
        segmentBase.timescale = Int(clamping: try wholeNumber(layer.attributes["timescale"], "SegmentBase@timescale") ?? 1)
        guard segmentBase.timescale > 0 else { throw PlaylistError(url: url, line: nil, message: "SegmentBase@timescale is 0") }
        segmentBase.presentationTimeOffset = try wholeNumber(layer.attributes["presentationTimeOffset"],
                                                             "SegmentBase@presentationTimeOffset") ?? 0
        if let initialization = layer.initialization {
            segmentBase.initializationRange = try byteRange(initialization["range"], "Initialization@range")
            segmentBase.initializationURL = try resolve(initialization["sourceURL"], against: base, construct: "Initialization@sourceURL")
        }
        return segmentBase
    }

    /// A whole number; a decimal with nothing after the point ("1.0", which some packagers write) is
    /// read with a warning, any other value refused naming the construct.
    private func wholeNumber(_ text: String?, _ construct: String, allowsMinusOne: Bool = false) throws -> Int64? {
        guard let text else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let value = Int64(trimmed), value >= 0 || (allowsMinusOne && value == -1) { return value }
        if let decimal = Double(trimmed), decimal.isFinite, decimal >= 0, decimal < 0x1p62, decimal == decimal.rounded(),
           trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) {
            warn("\(construct) '\(trimmed.prefix(40))' is a decimal where DASH wants a whole number; read as \(Int64(decimal))")
            return Int64(decimal)
        }
        throw PlaylistError(url: url, line: nil, message: "\(construct) '\(text.prefix(40))' is not a whole number")
    }

    /// `first-last` (RFC 9110 byte positions, both inclusive).
    private func byteRange(_ text: String?, _ construct: String) throws -> ByteRange? {
        guard let text else { return nil }
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = Int(parts[0]), let last = Int(parts[1]), first >= 0, last >= first, last < Int.max / 4 else {
            throw PlaylistError(url: url, line: nil, message: "\(construct) '\(text.prefix(40))' is not a byte range first-last")
        }
        return ByteRange(offset: first, length: last - first + 1)
    }

    /// Whether an adaptation set (or a representation in it) carries audio, by contentType, mimeType or
    /// codecs; nil when the level says nothing (a set is then audio if a member is, a member if its set is).
    private static func isAudio(_ level: Level) -> Bool? {
        let contentType = level.attributes["contentType"] ?? level.contentComponentType
        if let contentType { return contentType == "audio" }
        if let mimeType = level.attributes["mimeType"] { return mimeType.hasPrefix("audio/") }
        if let codecs = level.attributes["codecs"] {
            return codecs.split(separator: ",").allSatisfy { codec in
                let tag = codec.trimmingCharacters(in: .whitespaces).lowercased()
                return HLSCodecs.name(forTag: tag) != nil || undecodableCodecs.contains { tag.hasPrefix($0.0) }
            }
        }
        return nil
    }

    private func resolve(_ reference: String?, against base: String, construct: String = "BaseURL") throws -> String {
        guard let reference, !reference.isEmpty else { return base }
        do {
            return try PlaylistParser.absolute(reference, line: 0, base: URL(string: base)!, url: url)
        } catch {
            throw PlaylistError(url: url, line: nil, message: "\(construct) '\(reference.prefix(80))' is not an http(s) URL")
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
