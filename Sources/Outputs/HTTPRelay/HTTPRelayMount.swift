import RadioModel
import StreamInput

/// One path of a relay server: the broadcast it serves and who may listen to it.
final class HTTPRelayMount: Sendable {
    let path: String
    let broadcast: AudioBroadcast
    let options: HTTPRelayOptions
    /// `icy-name`, when the sink or the station has one.
    let name: String?
    /// The sink as written, token hidden: names the mount in events.
    let label: String
    /// Recent audio a new listener gets at once, as Icecast's burst-on-connect does, so a player fills
    /// its buffer and starts without waiting for real-time audio to trickle in.
    let burstBytes: Int
    let onEvent: @Sendable (StreamEvent) -> Void

    init(path: String, broadcast: AudioBroadcast, options: HTTPRelayOptions, name: String?, label: String,
         burstBytes: Int, onEvent: @escaping @Sendable (StreamEvent) -> Void) {
        self.path = path; self.broadcast = broadcast; self.options = options; self.name = name
        self.label = label; self.burstBytes = burstBytes; self.onEvent = onEvent
    }

    func admits(token: String?) -> Bool {
        guard let expected = options.token else { return true }
        return token.map { Self.constantTimeEqual(Array($0.utf8), Array(expected.utf8)) } ?? false
    }

    /// Compares without an early exit, so response times do not reveal how much of a guess was right.
    private static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }
}
