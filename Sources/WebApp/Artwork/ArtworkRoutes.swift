import Artwork
import Foundation
import HTTPServing
import Hummingbird
import RadioModel

/// Every image the web app shows, from the box's own origin: a station's logo or site icon, a podcast's or episode's
/// image, fetched once by the box (`ArtworkCache`), else a drawn placeholder with the name's initials. The phone
/// never asks a third party.
enum ArtworkRoutes {
    static func station(_ id: String) -> String { "/artwork/stations/\(Self.pathSafe(id))" }
    static func episode(_ id: Int64) -> String { "/artwork/episodes/\(id)" }
    static func podcast(_ id: Int64) -> String { "/artwork/podcasts/\(id)" }
    /// The drawn artwork of a playlist, by its name.
    static func playlist(_ name: String) -> String { "/artwork/initials/\(Self.pathSafe(name))" }

    static func add(to router: Router<ClientRequestContext>, services: WebServices) {
        @Sendable func artwork(_ find: @escaping @Sendable (PageServices, ArtworkCache) throws -> (Artwork?, name: String)?) async throws -> Response {
            let found = try await services.facade.perform { daemon -> (Artwork?, name: String)? in
                let pages = try PageServices(daemon, feedAddress: services.feedAddress)
                return try find(pages, ArtworkCache(directory: daemon.paths.cache.appendingPathComponent("artwork")))
            }
            guard let (image, name) = found else { throw HTTPError(.notFound, message: "no such artwork") }
            guard let image else { return placeholder(for: name) }
            return Response(status: .ok, headers: [.contentType: image.contentType, .cacheControl: "max-age=86400"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: image.data)))
        }

        router.get("/artwork/stations/:id") { _, context in
            let id = try context.parameters.require("id")
            return try await artwork { pages, cache in
                guard let station = try pages.catalogue().station(id: id) else { return nil }
                return (cache.logo(of: station), station.name)
            }
        }
        router.get("/artwork/initials/:name") { _, context in
            placeholder(for: String((try context.parameters.require("name")).prefix(200)))
        }
        router.get("/artwork/podcasts/:id") { _, context in
            let id = try context.parameters.require("id", as: Int64.self)
            return try await artwork { pages, cache in
                guard let podcast = try pages.podcasts.podcast(id: id) else { return nil }
                return (podcast.image.flatMap { cache.image(at: $0, of: "the image of \(UntrustedText.printable(podcast.title))") }, podcast.title)
            }
        }
        router.get("/artwork/episodes/:id") { _, context in
            let id = try context.parameters.require("id", as: Int64.self)
            return try await artwork { pages, cache in
                guard let episode = try pages.podcasts.episode(id: id) else { return nil }
                let podcast = try pages.podcasts.podcast(id: episode.podcast)
                let image = [episode.image, podcast?.image].compactMap { $0 }.lazy
                    .compactMap { cache.image(at: $0, of: "the image of \(UntrustedText.printable(episode.title))") }.first
                return (image, podcast?.title ?? episode.title)
            }
        }
    }

    /// A square in a colour of the name's, with its initials: drawn here, so it carries nothing but two letters.
    static func placeholder(for name: String) -> Response {
        let svg = Placeholder.svg(for: name)
        // Kept a minute only: the image may be fetched meanwhile.
        return Response(status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "max-age=60",
                                               .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: svg)))
    }

    /// A catalogue id as one path segment.
    private static func pathSafe(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? id
    }
}

/// The drawn artwork of what has none.
enum Placeholder {
    /// Dark enough for white initials to keep a 4.5:1 contrast.
    static let colours = ["#0b57d0", "#7a4fb5", "#b3261e", "#146c2e", "#8c4a00", "#00696e", "#5b6170", "#a8005a"]

    /// Up to two initials: the first letter or digit of the name's first two words ("Tones FM" → "TF").
    static func initials(of name: String) -> String {
        let words = name.split { !$0.isLetter && !$0.isNumber }
        let letters = words.prefix(2).compactMap { $0.first.map { String($0).uppercased() } }
        return letters.isEmpty ? "♪" : letters.joined()
    }

    static func svg(for name: String) -> String {
        let colour = colours[Int(StableHash.of(name) % UInt64(colours.count))]
        let text = MarkupEscaping.escaped(initials(of: name).unicodeScalars, apostrophe: "&#39;")
        return """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96" width="96" height="96" role="img"><rect width="96" height="96" rx="12" fill="\(colour)"/>\
        <text x="48" y="60" text-anchor="middle" font-family="system-ui, sans-serif" font-size="36" font-weight="700" fill="#fff">\(text)</text></svg>
        """
    }
}
