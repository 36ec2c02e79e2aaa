import Foundation
import NIOCore
import NIOPosix

/// A renderer fetches the media itself: a loopback URL (the daemon serves only this machine) works
/// for a renderer on this machine and for no other.
public enum LoopbackReach {
    /// Throws when `media` is on loopback and the renderer is elsewhere, saying what to do instead.
    public static func check(_ media: URL, for renderer: MediaRenderer) throws(CastingError) {
        guard let host = media.host, isLoopback(host), let rendererHost = renderer.location.host,
              !isThisMachine(rendererHost) else { return }
        throw CastingError("\(renderer.friendlyName) (\(rendererHost)) cannot fetch \(media.absoluteString): the daemon serves only "
                           + "this machine; relay the station to the network and cast that URL instead (see `onair cast --help`)",
                           kind: .unusable)
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]"
    }

    /// Whether `host` (an address, as SSDP's LOCATION gives it) is one of this machine's.
    static func isThisMachine(_ host: String) -> Bool {
        if isLoopback(host) { return true }
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let devices = (try? System.enumerateDevices()) ?? []
        return devices.contains { device in
            guard let address = device.address?.ipAddress else { return false }
            return address == bare
        }
    }
}
