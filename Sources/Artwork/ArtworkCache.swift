import Crypto
import Foundation
import RadioModel
import StreamInput

/// An image the box serves as an item's artwork: its bytes and their type.
public struct Artwork: Sendable, Equatable {
    public let data: Data
    public let contentType: String
}

/// Stations' logos and podcasts' images, fetched once by the box and kept on disk (`cache/artwork`), so a phone shows them from the
/// box's own origin and never asks a third party. What comes back is checked to be a raster image (PNG, JPEG, GIF or
/// WebP, by its first bytes, whatever the server says): SVG and anything else is refused, since an image served from
/// the box's origin must not carry script. At most 2 MiB. A logo that cannot be had is not asked for again for a day.
public struct ArtworkCache: Sendable {
    public static let maxBytes = 2 << 20
    static let retryAfterFailure: TimeInterval = 24 * 3600

    private let directory: URL
    private let engine: TransferEngine
    /// Images being fetched now, two at most in the whole daemon: a request for one more, or for one being fetched,
    /// gets none at once (its page shows the placeholder) rather than waiting, so a feed of slow images never holds
    /// the daemon's workers. Each fetch ends within `deadline`, however slowly its bytes come.
    private static let fetching = Locked<Set<String>>([])
    static let fetchesAtOnce = 2
    static let deadline: TimeInterval = 15

    public init(directory: URL, engine: TransferEngine = .shared) {
        (self.directory, self.engine) = (directory, engine)
    }

    /// The station's logo (the catalogue's `logo`), else its site's icon (the homepage's `/apple-touch-icon.png`,
    /// the one raster icon sites keep at a known place), fetched the first time; nil when it has none or it cannot be
    /// had (said in `failure`, once per try). Blocking (the network, the disk): never on Swift's cooperative pool.
    public func logo(of station: Station, failure: (String) -> Void = { _ in }) -> Artwork? {
        if let url = station.logo, !url.isEmpty {
            return image(at: url, of: "the logo of \(UntrustedText.printable(station.name))", failure: failure)
        }
        guard let homepage = station.homepage.flatMap(URLComponents.init(string:)), ["http", "https"].contains(homepage.scheme?.lowercased()),
              homepage.host?.isEmpty == false else { return nil }
        var icon = URLComponents()
        (icon.scheme, icon.host, icon.port, icon.path) = (homepage.scheme, homepage.host, homepage.port, "/apple-touch-icon.png")
        guard let url = icon.string else { return nil }
        return image(at: url, of: "the site icon of \(UntrustedText.printable(station.name))", failure: failure)
    }

    /// A podcast's or an episode's image (its feed's `itunes:image` or `image`), fetched the first time.
    public func image(at url: String, of what: String, failure: (String) -> Void = { _ in }) -> Artwork? {
        guard !url.isEmpty else { return nil }
        let name = SHA256.hash(data: Data(url.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
        let image = directory.appendingPathComponent(name + ".image"), failed = directory.appendingPathComponent(name + ".failed")
        if let data = try? Data(contentsOf: image), let type = Self.imageType(data) { return Artwork(data: data, contentType: type) }
        if let attributes = try? FileManager.default.attributesOfItem(atPath: failed.path),
           let date = attributes[.modificationDate] as? Date, Date().timeIntervalSince(date) < Self.retryAfterFailure {
            return nil
        }
        guard Self.fetching.withLock({ fetching in
            guard fetching.count < Self.fetchesAtOnce else { return false }
            return fetching.insert(url).inserted
        }) else { return nil }
        defer { _ = Self.fetching.withLock { $0.remove(url) } }
        do {
            var request = TransferRequest(url: url)
            request.stallTimeout = 10
            request.totalTimeout = Self.deadline
            request.maxRedirects = 2
            let response = try engine.fetch(request, maxBytes: Self.maxBytes)
            guard (200..<300).contains(response.head.status) else { throw ArtworkError("it answered \(response.head.status)") }
            guard let type = Self.imageType(response.body) else { throw ArtworkError("it is not a PNG, JPEG, GIF or WebP image") }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try response.body.write(to: image, options: .atomic)
            return Artwork(data: response.body, contentType: type)
        } catch {
            failure("\(what) (\(URLRedaction.redact(url))) cannot be had: \(error); tried again in a day")
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: failed.path, contents: nil)
            return nil
        }
    }

    /// The image's type by its signature; nil for anything but the four raster formats every app draws.
    static func imageType(_ data: Data) -> String? {
        let bytes = [UInt8](data.prefix(12))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return "image/gif" }
        if bytes.count == 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
        return nil
    }
}

struct ArtworkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
