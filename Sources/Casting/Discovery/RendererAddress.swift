import Foundation

/// Which renderer `--to` names: `upnp:NAME` (its friendly name, found by SSDP) or the URL of its
/// device description (for a renderer SSDP does not reach: another subnet, multicast filtered).
public enum RendererAddress: Sendable, Equatable {
    case named(String)
    case description(URL)

    public init?(_ text: String) {
        if text.lowercased().hasPrefix("upnp:") {
            let name = text.dropFirst("upnp:".count).trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { return nil }
            self = .named(name)
        } else if let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil {
            self = .description(url)
        } else {
            return nil
        }
    }

    /// The renderer, found and described. Blocks the calling thread (for `discoveryWait` seconds when named).
    public func find(discoveryWait: Double) throws(CastingError) -> MediaRenderer {
        switch self {
        case .description(let url):
            return try MediaRenderer.describe(url)
        case .named(let name):
            let renderers = try RendererDiscovery.all(waiting: discoveryWait)
            guard let match = renderers.first(where: { $0.friendlyName.caseInsensitiveCompare(name) == .orderedSame }) else {
                let seen = renderers.isEmpty ? "none answered" : "those that did: " + renderers.map { "\"\($0.friendlyName)\"" }.joined(separator: ", ")
                throw CastingError("no UPnP renderer named \"\(name)\" answered within \(String(format: "%g", discoveryWait)) s (\(seen))", kind: .notFound)
            }
            return match
        }
    }
}

/// The renderers on the network, described.
public enum RendererDiscovery {
    /// Every renderer that answered SSDP within `waiting` seconds and whose description could be read,
    /// by friendly name. One whose description fails is left out: it is not castable.
    public static func all(waiting: Double) throws(CastingError) -> [MediaRenderer] {
        try SSDPSearch.renderers(waiting: waiting).compactMap { try? MediaRenderer.describe($0) }
            .sorted { $0.friendlyName.localizedStandardCompare($1.friendlyName) == .orderedAscending }
    }
}
