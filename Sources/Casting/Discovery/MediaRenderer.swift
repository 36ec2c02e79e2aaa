import Foundation
import StreamInput
import XMLInput
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A UPnP MediaRenderer as its device description tells it: names, and where its AVTransport and
/// RenderingControl services take their SOAP actions.
public struct MediaRenderer: Sendable, Equatable {
    public var friendlyName: String
    public var manufacturer: String
    public var modelName: String
    /// The device description's URL (SSDP's `LOCATION`).
    public var location: URL
    public var avTransport: URL
    public var renderingControl: URL?

    /// Sonos players want radio streams under their own URL scheme (see `CastMedia.uri(for:)`).
    public var isSonos: Bool { manufacturer.localizedCaseInsensitiveContains("sonos") }

    /// Fetches and reads the description at `location`. Blocks the calling thread (the transfer engine's `fetch`).
    public static func describe(_ location: URL, engine: TransferEngine = .shared) throws(CastingError) -> MediaRenderer {
        let response: HTTPResponse
        do {
            response = try engine.fetch(TransferRequest(url: location.absoluteString, connectTimeout: 3, stallTimeout: 5), maxBytes: 1 << 20)
        } catch {
            throw CastingError("cannot reach the renderer: \(error)")
        }
        return try read(response.body, location: location)
    }

    /// Reads a device description. A Sonos player's root device is a ZonePlayer with the MediaRenderer
    /// embedded, so services are looked for in every device; the names are the root device's.
    static func read(_ description: Data, location: URL) throws(CastingError) -> MediaRenderer {
        let reader = DeviceDescriptionReader()
        do {
            try CheckedXMLParser.parse(description, into: reader, namespaces: true)
        } catch {
            throw CastingError("the renderer at \(location.absoluteString) sent an unreadable description: \(error)")
        }
        let base = reader.urlBase.flatMap { URL(string: $0) } ?? location
        func control(_ service: String) -> URL? {
            reader.services.first { $0.type.hasPrefix("urn:schemas-upnp-org:service:\(service):") }
                .flatMap { URL(string: $0.controlURL, relativeTo: base)?.absoluteURL }
        }
        guard let avTransport = control("AVTransport") else {
            throw CastingError("the device at \(location.absoluteString) (\(reader.friendlyName ?? "unnamed")) has no AVTransport service: "
                               + "it is not a media renderer", kind: .unusable)
        }
        return MediaRenderer(friendlyName: reader.friendlyName ?? location.host ?? location.absoluteString,
                             manufacturer: reader.manufacturer ?? "", modelName: reader.modelName ?? "",
                             location: location, avTransport: avTransport, renderingControl: control("RenderingControl"))
    }
}

/// Reads the parts of a UPnP device description onair uses. Parser callbacks only, on the parsing thread.
private final class DeviceDescriptionReader: NSObject, XMLParserDelegate {
    struct Service { var type = "", controlURL = "" }

    var friendlyName: String?
    var manufacturer: String?
    var modelName: String?
    var urlBase: String?
    var services: [Service] = []
    private var text = ""
    private var service: Service?
    private var deviceDepth = 0

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        text = ""
        switch name {
        case "device": deviceDepth += 1
        case "service": service = Service()
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let inRootDevice = deviceDepth == 1
        switch name {
        case "device": deviceDepth -= 1
        case "friendlyName" where inRootDevice: friendlyName = value
        case "manufacturer" where inRootDevice: manufacturer = value
        case "modelName" where inRootDevice: modelName = value
        case "URLBase": urlBase = value
        case "serviceType": service?.type = value
        case "controlURL": service?.controlURL = value
        case "service":
            if let service { services.append(service) }
            service = nil
        default: break
        }
        text = ""
    }
}
