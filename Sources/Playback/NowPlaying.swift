import Foundation
import RadioModel
import StreamInput

/// What the live view shows about the stream, kept up to date from its events (decode thread) and
/// read by the view (the key loop's thread).
public final class NowPlaying: Sendable {
    public struct Snapshot: Sendable {
        public var station: String
        public var programme: String?
        public var title: String?
        public var codec: String?
        public var reconnects = 0
        public var gaps = 0
        public var gapSeconds = 0.0
        public var recording: String?
        public var notice: String?
    }

    private let stored: Locked<Snapshot>
    private let programmeOnAir: @Sendable () -> String?

    /// `programmeOnAir` tells the programme on air at the moment (from the catalogue's schedule).
    public init(station: String, programmeOnAir: @escaping @Sendable () -> String?) {
        stored = Locked(Snapshot(station: station, programme: nil))
        self.programmeOnAir = programmeOnAir
    }

    public var snapshot: Snapshot {
        var now = stored.current
        now.programme = programmeOnAir()
        return now
    }

    public func observe(_ event: StreamEvent) {
        stored.withLock { stored in
            switch event {
            case .metadata(let change): stored.title = change.title.isEmpty ? nil : change.title
            case .decoding(let codec, let rate, let channels, let bitrate):
                let kbps = bitrate.map { " \($0 / 1000) kbit/s" } ?? ""
                stored.codec = "\(codec)\(kbps) \(Double(rate) / 1000) kHz \(channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) ch")"
            case .reconnecting: stored.reconnects += 1
            case .gap(let gap):
                stored.gaps += 1
                stored.gapSeconds += gap.seconds
            case .warning(let message): stored.notice = message
            case .consumerFailed(let label, let reason): stored.notice = "\(label) failed: \(reason)"
            case .alert(let alert): stored.notice = alert.alertLine
            case .recovered(let alert): stored.notice = alert.recoveryLine
            default: break
            }
        }
    }

    public func setRecording(_ recording: String?) { stored.withLock { $0.recording = recording } }
    public func setNotice(_ notice: String?) { stored.withLock { $0.notice = notice } }
}
