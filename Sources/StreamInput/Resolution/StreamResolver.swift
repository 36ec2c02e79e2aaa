import Foundation
import RadioModel

/// Which HLS variant to pick.
public enum StreamQuality: String, Sendable, CaseIterable, Codable {
    case low, high
}

/// The concrete stream behind a station or URL.
public struct ResolvedStream: Sendable, Codable, Equatable {
    /// What the user asked for.
    public var input: String
    /// The stream to connect to (after playlists and redirects).
    public var url: String
    public var kind: StreamKind
    public var contentType: String?
    public var codec: String?
    /// kbit/s, from icy-br or the HLS variant's bandwidth.
    public var bitrate: Int?
    /// icy-name, if the server sent one.
    public var name: String?
    /// Every URL visited, in order: playlists and the stream.
    public var chain: [String]
    /// For HLS masters: all variants, and the chosen one is `url`.
    public var variants: [HLSVariant]?
    /// For HLS masters: the variant `url` belongs to.
    public var chosenVariant: HLSVariant?
    /// For HLS: what the media playlist looked like.
    public var hls: HLSPlaylistSummary?
    /// For MPEG-DASH: what the MPD looked like.
    public var dash: DASHSummary?
    /// Where a playlist on the way broke its format's rules and was read as players read it, one line each.
    public var warnings: [String]?
}

/// An MPD at a glance, as `onair resolve` shows it.
public struct DASHSummary: Sendable, Codable, Equatable {
    /// True for a dynamic (live) MPD.
    public var live: Bool
    public var periods: Int
    /// Audio representations in the newest period, and the bandwidth of the one chosen (bit/s).
    public var representations: Int
    public var segmentDuration: Double
    /// Seconds of audio listed now: how far back a late start (`--from`) can reach.
    public var windowSeconds: Double
    /// Segments available now.
    public var segments: Int
    /// Whether the MPD says where to read the server's clock (UTCTiming).
    public var utcTiming: Bool

    init(_ mpd: MPD, listing: DASHTimeline.Listing) {
        live = mpd.type == .dynamic
        periods = mpd.periods.count
        representations = mpd.periods.last?.representations.count ?? 0
        segmentDuration = (listing.playlist.targetDuration * 1000).rounded() / 1000
        windowSeconds = (listing.playlist.windowDuration * 1000).rounded() / 1000
        segments = listing.playlist.segments.count
        utcTiming = !mpd.utcTimings.isEmpty
    }
}

/// An HLS media playlist at a glance, as `onair resolve` shows it.
public struct HLSPlaylistSummary: Sendable, Codable, Equatable {
    public var targetDuration: Double
    /// Seconds of audio the playlist spans: how far back a late start (`--from`) can reach.
    public var windowSeconds: Double
    public var segments: Int
    public var mediaSequence: Int
    /// False once the playlist has EXT-X-ENDLIST.
    public var live: Bool
    /// Whether segments carry EXT-X-PROGRAM-DATE-TIME (needed for `--from` and exact cuts).
    public var programDateTime: Bool
    /// "AES-128" when segments are encrypted.
    public var encryption: String?
    /// The media type of the segments as their extension says ("video/mp2t", "audio/aac", "audio/mp4").
    public var segmentType: String?

    public init(_ playlist: MediaPlaylist) {
        targetDuration = playlist.targetDuration
        windowSeconds = (playlist.windowDuration * 1000).rounded() / 1000
        segments = playlist.segments.count
        mediaSequence = playlist.mediaSequence
        live = !playlist.endList
        programDateTime = playlist.segments.contains { $0.programDateTime != nil }
        encryption = playlist.segments.contains { $0.encryption != nil } ? "AES-128" : nil
        segmentType = playlist.segments.first.flatMap { AudioContentType.mediaType(forSegmentPath: URL(string: $0.url)?.path ?? "") }
    }
}

public struct ResolutionError: Error, Sendable, CustomStringConvertible {
    public var input: String
    public var message: String
    public var description: String { "cannot resolve \(URLRedaction.redact(input)): \(message)" }
}

/// Turns a URL (a stream, a .pls/.m3u playlist, an HLS master, a DASH MPD) into the stream to play.
///
/// Blocking: call it from a thread of its own or the main thread, never from Swift's cooperative pool.
public struct StreamResolver: Sendable {
    public var engine: TransferEngine
    public var quality: StreamQuality
    /// Playlists nested in playlists, at most.
    public var maxDepth = 4
    public var connectTimeout: Double = 10

    public init(engine: TransferEngine = .shared, quality: StreamQuality = .high) {
        self.engine = engine; self.quality = quality
    }

    /// Resolves a station's streams in order of preference; the first that answers wins.
    public func resolve(_ station: Station) throws -> ResolvedStream {
        var failures: [String] = []
        for endpoint in station.streams {
            do {
                var resolved = try resolve(endpoint.url)
                resolved.input = station.id
                resolved.codec = resolved.codec ?? endpoint.codec
                resolved.bitrate = resolved.bitrate ?? endpoint.bitrate
                return resolved
            } catch {
                failures.append("\(error)")
            }
        }
        if failures.count == 1 { throw ResolutionError(input: station.id, message: failures[0]) }
        throw ResolutionError(input: station.id, message: failures.isEmpty ? "the station lists no stream"
                                  : FailureSummary.line(failures, of: "streams"))
    }

    public func resolve(_ url: String) throws -> ResolvedStream {
        var chain: [String] = []
        do {
            var resolved = try resolve(url, depth: 0, chain: &chain)
            resolved.input = url
            return resolved
        } catch let error as ResolutionError {
            throw error
        } catch {
            throw ResolutionError(input: url, message: "\(error)")
        }
    }

    /// `importing`: the variables of the master playlist whose variant `url` is (EXT-X-DEFINE IMPORT).
    private func resolve(_ url: String, depth: Int, chain: inout [String], importing: [String: String] = [:]) throws -> ResolvedStream {
        guard depth <= maxDepth else {
            throw ResolutionError(input: url, message: "playlists nested deeper than \(maxDepth)")
        }
        let request = TransferRequest(url: url, headers: [("Icy-MetaData", "1")], connectTimeout: connectTimeout)
        // An audio stream never ends: its headers and first bytes tell all we need. What its first bytes
        // show to be a playlist is read whole, whatever its Content-Type (PlaylistFetch).
        let response = try PlaylistFetch.fetch(request, engine: engine, maxBytes: max(PlaylistParser.maxBytes, MPDParser.maxBytes))
        let head = response.head
        chain.append(URLRedaction.redact(head.url))
        if response.stoppedAfterHead {
            if let media = PlaylistSniffer.unplayableMedia(response.body) {
                throw ResolutionError(input: url, message: "\(URLRedaction.redact(head.url)) answers \(media), which onair does not play")
            }
            let info = ConnectionInfo(head: head)
            return ResolvedStream(input: url, url: head.url, kind: .icy, contentType: head.mediaType,
                                  codec: AudioContentType.likelyCodec(for: head.mediaType), bitrate: info.bitrate,
                                  name: info.name, chain: chain, variants: nil)
        }
        if MPDParser.isMPD(mediaType: head.mediaType, url: head.url, body: response.body) {
            let mpd = try MPDParser.parse(response.body, url: head.url)
            var timeline = DASHTimeline(quality: quality)
            let listing = try timeline.playlist(mpd, now: Date())
            guard listing.mimeType != nil || !listing.playlist.segments.isEmpty else {
                throw ResolutionError(input: url, message: "the MPD has no audio representation onair can follow")
            }
            var resolved = ResolvedStream(input: url, url: head.url, kind: .dash, contentType: listing.mimeType, codec: listing.codec,
                                          bitrate: listing.bandwidth.map { $0 / 1000 }, name: nil, chain: chain, variants: nil,
                                          dash: DASHSummary(mpd, listing: listing))
            if !mpd.warnings.isEmpty { resolved.warnings = mpd.warnings }
            return resolved
        }
        guard PlaylistParser.isPlaylist(mediaType: head.mediaType, url: head.url, body: response.body) else {
            throw ResolutionError(input: url, message: "neither an audio stream nor a playlist (Content-Type \(head.mediaType ?? "none"))")
        }
        let reading = try PlaylistParser.read(response.body, url: head.url, importing: importing)
        switch reading.content {
        case .hlsMedia(let playlist):
            return ResolvedStream(input: url, url: head.url, kind: .hls, contentType: head.mediaType, codec: nil,
                                  bitrate: nil, name: nil, chain: chain, variants: nil, hls: HLSPlaylistSummary(playlist))
        case .hlsMaster(let variants):
            // RFC 8216 §6.3.1: a variant that fails gives way to the next — a broadcaster's backup of
            // the same bandwidth first, then the others.
            var failures: [String] = []
            for chosen in ranked(variants) {
                do {
                    var resolved = try resolve(chosen.url, depth: depth + 1, chain: &chain, importing: chosen.masterVariables)
                    resolved.codec = chosen.codec ?? resolved.codec
                    resolved.bitrate = chosen.bandwidth > 0 ? chosen.bandwidth / 1000 : resolved.bitrate
                    resolved.variants = variants
                    resolved.chosenVariant = chosen
                    return resolved
                } catch {
                    failures.append("\(error)")
                }
            }
            throw ResolutionError(input: url, message: FailureSummary.line(failures, of: "variants"))
        case .entries(let entries):
            var failures: [String] = []
            for entry in entries {
                do {
                    var resolved = try resolve(entry, depth: depth + 1, chain: &chain)
                    if !reading.warnings.isEmpty { resolved.warnings = reading.warnings + (resolved.warnings ?? []) }
                    return resolved
                } catch {
                    failures.append("\(error)")
                }
            }
            throw ResolutionError(input: url, message: FailureSummary.line(failures, of: "entries"))
        }
    }

    /// The variant to play: see `ranked`.
    public func choose(from variants: [HLSVariant]) -> HLSVariant {
        ranked(variants)[0]
    }

    /// Variants in the order to try them. First by where the audio is: audio-only variants (radio needs
    /// no video), the DEFAULT=YES rendition (or the variants carrying it, when it has no URI),
    /// AUTOSELECT=YES renditions, variants with audio of their own, then variants whose audio is only in
    /// rendition playlists; a rendition marked neither DEFAULT nor AUTOSELECT is never played unasked
    /// (RFC 8216 §4.3.4.1.1). Then stereo before surround (AC-3/E-AC-3, CHANNELS above 2: `quality`
    /// picks a bitrate, not a loudspeaker layout), then by bandwidth (highest or lowest first, as `quality`
    /// says), then the order of the playlist — a primary listed before its backup stays first.
    public func ranked(_ variants: [HLSVariant]) -> [HLSVariant] {
        func place(_ variant: HLSVariant) -> Int {
            switch variant.rendition {
            case .default?: return 1
            case .some: return 2
            case nil:
                if variant.isAudioOnly { return 0 }
                switch variant.audio {
                case .defaultInside?: return 1
                case .inRenditions?: return 4
                case .own?, nil: return 3
                }
            }
        }
        return variants.enumerated().filter { $0.element.rendition != .unselected }.sorted { a, b in
            let (x, y) = (a.element, b.element)
            if place(x) != place(y) { return place(x) < place(y) }
            if x.isSurround != y.isSurround { return !x.isSurround }
            if x.bandwidth != y.bandwidth { return quality == .high ? x.bandwidth > y.bandwidth : x.bandwidth < y.bandwidth }
            return a.offset < b.offset
        }.map(\.element)
    }
}

/// Many failures of alternatives (playlist entries, variants, a station's streams) as one readable line:
/// how many failed, the first two reasons, and how many more — not every reason run together.
public enum FailureSummary {
    /// Longest reason quoted, in characters.
    static let maxReason = 240

    public static func line(_ failures: [String], of noun: String) -> String {
        let reasons = failures.prefix(2).map(shortened)
        switch failures.count {
        case 0: return "the playlist lists no \(noun)"
        case 1: return failures[0]
        case 2: return "both \(noun) failed: " + reasons.joined(separator: "; ")
        default: return "all \(failures.count) \(noun) failed: " + reasons.joined(separator: "; ") + "; and \(failures.count - 2) more"
        }
    }

    /// A long reason loses its middle: its start names what failed (a URL) and its end says why.
    private static func shortened(_ reason: String) -> String {
        let flat = reason.split(whereSeparator: \.isNewline).joined(separator: " ")
        guard flat.count > maxReason else { return flat }
        return flat.prefix(maxReason / 2) + "…" + flat.suffix(maxReason / 2 - 1)
    }
}
