import Foundation

/// The actions `onair cast` takes on a renderer (instance 0, the only one renderers without a
/// ConnectionManager.PrepareForConnection have). Each blocks the calling thread for one request.
public struct RendererControl: Sendable {
    public let renderer: MediaRenderer

    public init(_ renderer: MediaRenderer) { self.renderer = renderer }

    /// Sets the media and starts it: SetAVTransportURI, then Play.
    public func play(_ media: CastMedia) throws(CastingError) {
        try transport("SetAVTransportURI", [("CurrentURI", media.uri(forSonos: renderer.isSonos)),
                                            ("CurrentURIMetaData", media.didlLite)])
        try transport("Play", [("Speed", "1")])
    }

    public func stop() throws(CastingError) {
        try transport("Stop", [])
    }

    /// The transport state: "PLAYING", "STOPPED", "TRANSITIONING", "PAUSED_PLAYBACK", "NO_MEDIA_PRESENT".
    public func transportState() throws(CastingError) -> String {
        try transport("GetTransportInfo", [])["CurrentTransportState"] ?? "unknown"
    }

    /// Sets the master volume, 0–100.
    public func setVolume(_ volume: Int) throws(CastingError) {
        try rendering("SetVolume", [("Channel", "Master"), ("DesiredVolume", String(volume))])
    }

    public func volume() throws(CastingError) -> Int? {
        try rendering("GetVolume", [("Channel", "Master")])["CurrentVolume"].flatMap { Int($0) }
    }

    @discardableResult
    private func transport(_ action: String, _ arguments: [(name: String, value: String)]) throws(CastingError) -> [String: String] {
        try SOAPAction("AVTransport", action, [(name: "InstanceID", value: "0")] + arguments).send(to: renderer.avTransport, renderer: renderer.friendlyName)
    }

    @discardableResult
    private func rendering(_ action: String, _ arguments: [(name: String, value: String)]) throws(CastingError) -> [String: String] {
        guard let control = renderer.renderingControl else {
            throw CastingError("\(renderer.friendlyName) has no RenderingControl service: its volume cannot be set", kind: .unusable)
        }
        return try SOAPAction("RenderingControl", action, [(name: "InstanceID", value: "0")] + arguments).send(to: control, renderer: renderer.friendlyName)
    }
}
