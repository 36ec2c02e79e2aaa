import Foundation
import Synchronization

/// The loopback server that stands in for the internet for the real-world corpus, on a
/// `FixtureHTTPServer`. Nothing it answers leaves 127.0.0.1:
///
/// - `/PATH`: the artifact as stored; Range requests get 206 (DASH SegmentBase reads by range).
/// - `/local/PATH[?dead=a,b]`: the artifact with every absolute URL a client would fetch pointing
///   back here, at `/_ext/SCHEME/HOST/PATH` (or at `/_dead/…`, a 503, when HOST+PATH contains one of
///   `dead`). In XML only element text and the attributes that hold addresses are rewritten, never
///   namespace names. A missing `.m3u8` below it is answered by a captured media playlist, the
///   mounts a case's relative entries name like a station, a DASH init segment no capture holds
///   by a real one, anything else missing by 404.
/// - `/_ext/SCHEME/HOST/PATH`: what a rewritten URL reaches: a captured answer where we hold one,
///   a media playlist for any `.m3u8`, a one-entry `.pls` for a `.pls` (a station's own playlist
///   named by a directory's), the time for a DASH UTCTiming server, and otherwise a station mount
///   (an MP3 or AAC answer with `icy-*` headers).
/// - `/_raw/PATH`: the file's bytes as the whole response head (a captured `ICY 200 OK` answer), then audio.
/// - `/_icy/ID`: an ICY stream (metaint 8192) whose first metadata block is block ID of `icy/metadata-blocks.json`.
///
/// Every request is logged with its arrival time and Range header (`requests`).
public final class CorpusServer: Sendable {
    /// One request as it arrived.
    public struct Request: Sendable {
        public let time: Date
        public let method: String
        /// The target as sent, query included.
        public let target: String
        /// The target without its query.
        public let path: String
        /// The Range header's value, if any.
        public let range: String?
    }

    private let server: FixtureHTTPServer
    private let log = RequestLog()

    /// - Parameter audio: the MP3 every stand-in mount and ICY stream carries.
    public init(corpus: RealWorldCorpus, audio: Data) throws {
        server = try FixtureHTTPServer()
        let routes = Routes(corpus: corpus, audio: audio, origin: "http://127.0.0.1:\(server.port)",
                            metadataBlocks: try corpus.metadataBlocks())
        server.route("/") { [log] request, connection in
            log.entries.withLock {
                $0.append(Request(time: Date(), method: request.method, target: request.target, path: request.path,
                                  range: request.headers["Range"]))
            }
            try routes.answer(request, connection)
        }
    }

    /// `http://127.0.0.1:PORT/PATH-AND-QUERY`
    public func url(_ pathAndQuery: String) -> String { "http://127.0.0.1:\(server.port)/\(pathAndQuery)" }

    /// The URL a case's artifact is fetched from, as the case serves it.
    public func url(for corpusCase: CorpusCase) -> String {
        switch corpusCase.served {
        case .rewritten:
            let dead = corpusCase.failingHosts.map { "?dead=" + $0.joined(separator: ",") } ?? ""
            return url("local/\(corpusCase.artifact)\(dead)")
        case .asResponseHead: return url("_raw/\(corpusCase.artifact)")
        case .asStored, .fromDisk, nil:
            if let block = corpusCase.metadataBlockID { return url("_icy/\(block)") }
            return url(corpusCase.artifact)
        }
    }

    public var requests: [Request] { log.entries.withLock { $0 } }

    public func stop() { server.stop() }
}

/// The requests a `CorpusServer` received, kept apart so that its connection threads can share them.
private final class RequestLog: Sendable {
    let entries = Mutex<[CorpusServer.Request]>([])
}

/// What `CorpusServer` answers at each path; read-only, shared by the connection threads.
private struct Routes: Sendable {
    let corpus: RealWorldCorpus
    let audio: Data
    /// `http://127.0.0.1:PORT`
    let origin: String
    let metadataBlocks: [String: String]

    /// The media playlist that answers every variant URL we hold no capture of.
    static let substituteMediaPlaylist = "hls/radiofrance-fiprock-hifi-media.m3u8"
    /// Internet URLs (host and path, escapes upper-cased) whose real answer the corpus holds.
    static let capturedAnswers = [
        "as-hls-ww-live.akamaized.net/pool_904/live/ww/bbc_radio_fourfm/bbc_radio_fourfm.isml/bbc_radio_fourfm-audio%3D96000.norewind.m3u8":
            "hls/bbc-radio-one-usp-media.m3u8",
    ]
    /// The DASH UTCTiming (http-xsdate) servers the MPDs name.
    static let clocks: Set = ["example.com/iso"]
    /// Relative entries under `/local/` that cases expect to reach a station.
    static let localMounts: Set = ["pls/example2.mp3", "xspf/three/four"]
    /// An init segment an MPD names but no capture holds, answered by a real AAC one so that the
    /// client goes on to ask for media segments (whose numbers a live case judges).
    static let standInInitNames: Set = ["IS.mp4"]
    static let standInInit = "dash/androidx-cmaf-multi-segment/audio_init.mp4"
    static let textSuffixes = ["m3u8", "m3u", "pls", "mpd", "xspf", "asx", "wax", "xml", "rss"]
    static let xmlSuffixes: Set = ["mpd", "xspf", "asx", "wax", "xml", "rss"]
    static let contentTypes = [
        "m3u8": "application/vnd.apple.mpegurl", "m3u": "audio/x-mpegurl", "pls": "audio/x-scpls",
        "mpd": "application/dash+xml", "asx": "video/x-ms-asf", "wax": "audio/x-ms-wax", "xspf": "application/xspf+xml",
        "rss": "application/rss+xml", "xml": "application/xml", "gz": "application/gzip", "m4s": "video/iso.segment",
        "mp4": "audio/mp4", "mp3": "audio/mpeg", "json": "application/json", "http": "application/octet-stream",
    ]

    func answer(_ request: FixtureRequest, _ connection: FixtureConnection) throws {
        let path = request.path.removingPercentEncoding ?? request.path
        if request.path.hasPrefix("/_dead/") {
            return try FixtureHTTPServer.status(503)(request, connection)
        }
        if request.path.hasPrefix("/_ext/") {
            return try external(request, connection)
        }
        if let name = path.dropping(prefix: "/_raw/") {
            try connection.send(corpus.data(name))
            return try connection.send(audio.prefix(64 * 1024))
        }
        if let id = path.dropping(prefix: "/_icy/") {
            guard let block = metadataBlocks[id] else { return try FixtureHTTPServer.status(404)(request, connection) }
            let stream = ICYStreamWriter(audio: audio, metaint: 8192, schedule: [.init(atAudioByte: 0, .metadata(Array(block.utf8)))])
            return try FixtureHTTPServer.icyStream(stream, statusLine: "HTTP/1.0 200 OK",
                                                   headers: [("icy-name", "corpus ICY metadata case \(id)")])(request, connection)
        }
        if let relative = path.dropping(prefix: "/local/") {
            return try local(relative, request, connection)
        }
        let relative = String(path.dropFirst())
        guard !relative.isEmpty, !relative.split(separator: "/").contains(".."), let data = try? corpus.data(relative) else {
            return try FixtureHTTPServer.status(404)(request, connection)
        }
        try Self.ranged(data, name: relative)(request, connection)
    }

    private func local(_ relative: String, _ request: FixtureRequest, _ connection: FixtureConnection) throws {
        let suffix = (relative as NSString).pathExtension.lowercased()
        if !relative.split(separator: "/").contains(".."), let data = try? corpus.data(relative) {
            guard Self.textSuffixes.contains(suffix) else { return try Self.ranged(data, name: relative)(request, connection) }
            let dead = (request.query["dead"] ?? "").split(separator: ",").map(String.init)
            let body = rewritten(data, dead: dead, xml: Self.xmlSuffixes.contains(suffix))
            return try FixtureHTTPServer.file(body, contentType: Self.contentType(relative))(request, connection)
        }
        if suffix == "m3u8" { return try substituteMediaPlaylist(request, connection) }
        if Self.localMounts.contains(relative) { return try mount(relative, request, connection) }
        if Self.standInInitNames.contains((relative as NSString).lastPathComponent) {
            return try Self.ranged(corpus.data(Self.standInInit), name: Self.standInInit)(request, connection)
        }
        try FixtureHTTPServer.status(404)(request, connection)
    }

    private func external(_ request: FixtureRequest, _ connection: FixtureConnection) throws {
        // /_ext/SCHEME/HOST/PATH: the scheme is dropped, HOST/PATH kept as sent.
        let hostAndPath = request.path.dropFirst("/_ext/".count).split(separator: "/", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        if Self.clocks.contains(hostAndPath) {
            let clock = ISO8601DateFormatter()
            clock.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let now = clock.string(from: Date())
            return try FixtureHTTPServer.file(Data(now.utf8), contentType: "text/plain")(request, connection)
        }
        if let capture = Self.capturedAnswers[Self.upperCasingEscapes(hostAndPath)] {
            return try FixtureHTTPServer.file(corpus.data(capture), contentType: Self.contentTypes["m3u8"]!)(request, connection)
        }
        switch (hostAndPath as NSString).pathExtension.lowercased() {
        case "m3u8":
            try substituteMediaPlaylist(request, connection)
        case "pls":
            // The station's own playlist: one entry, a mount below it with the same query.
            let query = request.target.firstIndex(of: "?").map { String(request.target[$0...]) } ?? ""
            let pls = "[playlist]\nNumberOfEntries=1\nFile1=\(origin)\(request.path)/stream\(query)\nTitle1=corpus stand-in\nLength1=-1\nVersion=2\n"
            try FixtureHTTPServer.file(Data(pls.utf8), contentType: Self.contentTypes["pls"]!)(request, connection)
        default:
            try mount(hostAndPath, request, connection)
        }
    }

    private func substituteMediaPlaylist(_ request: FixtureRequest, _ connection: FixtureConnection) throws {
        try FixtureHTTPServer.file(corpus.data(Self.substituteMediaPlaylist), contentType: Self.contentTypes["m3u8"]!)(request, connection)
    }

    /// A station as Icecast answers: 200, the audio type its path suggests, `icy-*` headers, then
    /// 64 KiB of audio and the end (enough to probe and to decode).
    private func mount(_ name: String, _ request: FixtureRequest, _ connection: FixtureConnection) throws {
        let type = name.range(of: "aac", options: .caseInsensitive) == nil ? "audio/mpeg" : "audio/aac"
        try connection.sendStatus(line: "HTTP/1.0 200 OK", headers: [
            ("Content-Type", type), ("icy-name", "corpus stand-in for \(name.prefix(80))"), ("icy-br", "128"),
            ("Cache-Control", "no-cache"), ("Connection", "close"),
        ])
        if request.method != "HEAD" { try connection.send(audio.prefix(64 * 1024)) }
    }

    /// The artifact with its fetchable absolute URLs pointing at this server. Read as Latin-1, so
    /// that every byte (UTF-8 or not) comes back out as it went in.
    private func rewritten(_ data: Data, dead: [String], xml: Bool) -> Data {
        let text = String(data: data, encoding: .isoLatin1)!
        let pattern = xml ? Self.fetchedXMLURL : Self.absoluteURL
        let matches = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text))
        var result = text
        for match in matches.reversed() {
            let group = { (index: Int) in String(text[Range(match.range(at: index), in: text)!]) }
            let offset = xml ? 1 : 0
            let (scheme, host, rest) = (group(offset + 1), group(offset + 2), group(offset + 3))
            let view = dead.contains { (host + rest).contains($0) } ? "_dead" : "_ext"
            let replacement = (xml ? group(1) : "") + "\(origin)/\(view)/\(scheme)/\(host)\(rest)"
            result.replaceSubrange(Range(match.range, in: result)!, with: replacement)
        }
        return result.data(using: .isoLatin1)!
    }

    /// `scheme://host` then the path, up to a quote, a bracket or white space (ASCII white space
    /// only: a Latin-1 byte such as 0xA0 is part of the URL).
    private static let urlBody = #"(https?)://([^/ \t\r\n\f\x0B"'<>;]+)([^ \t\r\n\f\x0B"'<>]*)"#
    private static let absoluteURL = try! NSRegularExpression(pattern: urlBody)
    /// In XML, a URL right after a start tag or as the value of an attribute that holds an address.
    private static let fetchedXMLURL = try! NSRegularExpression(
        pattern: #"(>[ \t\r\n\f\x0B]*|\b(?:href|HREF|Href|src|url|sourceURL|media|initialization|value)[ \t\r\n]*=[ \t\r\n]*["'])"# + urlBody)

    static func contentType(_ name: String) -> String {
        contentTypes[(name as NSString).pathExtension.lowercased()] ?? "application/octet-stream"
    }

    static func ranged(_ data: Data, name: String) -> FixtureHTTPServer.Handler {
        FixtureHTTPServer.rangedFile(data, contentType: contentType(name), served: Counter())
    }

    /// Percent-escapes compare case-insensitively (%3d is %3D).
    static func upperCasingEscapes(_ text: String) -> String {
        let escape = try! NSRegularExpression(pattern: "%[0-9a-fA-F]{2}")
        var result = text
        for match in escape.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            let range = Range(match.range, in: result)!
            result.replaceSubrange(range, with: result[range].uppercased())
        }
        return result
    }
}

private extension String {
    func dropping(prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}
