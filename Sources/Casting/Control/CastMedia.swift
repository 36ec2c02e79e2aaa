import Foundation
import XMLInput

/// What a renderer is asked to play: the URL it fetches and the DIDL-Lite metadata it shows.
public struct CastMedia: Sendable, Equatable {
    public enum Kind: Sendable {
        /// A station's live stream: it has no end, and Sonos plays it only as radio.
        case liveStation
        /// A recording, a file with an end.
        case recording
    }

    public var url: URL
    public var kind: Kind
    public var title: String
    /// The station's name, shown by renderers as the artist or channel.
    public var station: String?
    /// The audio's MIME type for the `res` element's protocolInfo; nil leaves it open.
    public var mimeType: String?
    public var artwork: URL?

    public init(url: URL, kind: Kind, title: String, station: String? = nil, mimeType: String? = nil, artwork: URL? = nil) {
        self.url = url; self.kind = kind; self.title = title; self.station = station; self.mimeType = mimeType; self.artwork = artwork
    }

    /// The MIME type of audio in `codec` as onair names codecs ("mp3", "aac", …), nil when not known.
    public static func mimeType(ofCodec codec: String?) -> String? {
        switch codec?.lowercased() {
        case "mp3": return "audio/mpeg"
        case "aac", "he-aac": return "audio/aac"
        case "opus", "vorbis": return "audio/ogg"
        case "flac": return "audio/flac"
        default: return nil
        }
    }

    /// The URI for SetAVTransportURI. A Sonos player takes an http URL for a file it can seek, and
    /// treats an endless one as a broken file; for radio it wants its own scheme,
    /// `x-rincon-mp3radio://host/path` (MP3 and AAC streams alike).
    public func uri(forSonos sonos: Bool) -> String {
        guard sonos, kind == .liveStation, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false),
              parts.scheme == "http" else { return url.absoluteString }
        parts.scheme = "x-rincon-mp3radio"
        return parts.string ?? url.absoluteString
    }

    /// DIDL-Lite for CurrentURIMetaData: a live station is an `audioBroadcast` (as Sonos and most
    /// control points expect for radio), a recording a `musicTrack`. Every value XML-escaped.
    public var didlLite: String {
        let upnpClass = kind == .liveStation ? "object.item.audioItem.audioBroadcast" : "object.item.audioItem.musicTrack"
        var item = "<dc:title>\(XMLText.escaped(title))</dc:title><upnp:class>\(upnpClass)</upnp:class>"
        if let station {
            item += "<dc:creator>\(XMLText.escaped(station))</dc:creator><upnp:artist>\(XMLText.escaped(station))</upnp:artist>"
            if kind == .liveStation { item += "<upnp:channelName>\(XMLText.escaped(station))</upnp:channelName>" }
        }
        if let artwork { item += "<upnp:albumArtURI>\(XMLText.escaped(artwork.absoluteString))</upnp:albumArtURI>" }
        item += "<res protocolInfo=\"http-get:*:\(mimeType ?? "*"):*\">\(XMLText.escaped(url.absoluteString))</res>"
        return "<DIDL-Lite xmlns=\"urn:schemas-upnp-org:metadata-1-0/DIDL-Lite/\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" "
            + "xmlns:upnp=\"urn:schemas-upnp-org:metadata-1-0/upnp/\"><item id=\"onair-cast\" parentID=\"0\" restricted=\"1\">"
            + item + "</item></DIDL-Lite>"
    }
}
