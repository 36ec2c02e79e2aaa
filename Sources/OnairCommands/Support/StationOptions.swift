import ArgumentParser
import Engine
import RadioModel
import StreamInput

/// What every command that plays a live station takes: the station, how to reach and keep it, the
/// PCM format, and how events are shown.
struct StationOptions: ParsableArguments {
    @Argument(help: "A station id from the catalogue, or a stream or playlist URL.")
    var station: String

    @Option(help: ArgumentHelp("PCM format RATE:BITS:CHANNELS (bits 16, 24 or 32).", valueName: "format"))
    var pcm: String = PCMFormat.snapcastDefault.description

    @Option(help: "HLS variant (from a master playlist) or DASH representation to pick: low or high.")
    var quality: StreamQuality = .high

    @Option(help: ArgumentHelp("HLS and DASH: start at this time on the stream's own clock (HH:MM[:SS], its latest occurrence, "
                               + "or an ISO 8601 date) if the playlist still holds it. Default: near the live edge.",
                               valueName: "time"))
    var from: String?

    @Option(help: "Seconds without data after which the connection is replaced.")
    var stallTimeout: Double = 15

    @Option(help: "Seconds to wait for a connection.")
    var connectTimeout: Double = 10

    @Option(help: "Give up after this many failed reconnects in a row (default: never).")
    var maxReconnects: Int?

    @Option(help: ArgumentHelp("Reconnect backoff: first and longest delay in seconds; doubles between, ±25% jitter.",
                               valueName: "min:max"))
    var reconnectDelay: String = "0.5:30"

    @OptionGroup var alerts: AlertOptions

    @Flag(help: "Print events (connected, decoding, metadata, gap, reconnecting, dead-air, down, recovered, sink, error) as JSON lines.")
    var json = false

    @Flag(help: "Show FFmpeg's own warnings.")
    var verbose = false

    func validate() throws {
        if let from, Timestamp.parseRecent(from) == nil {
            throw ValidationError("invalid --from '\(from)': use a time of day HH:MM[:SS] or an ISO 8601 date like 2026-11-22T10:00")
        }
        if PCMFormat(pcm) == nil {
            throw ValidationError("invalid --pcm '\(pcm)': expected RATE:BITS:CHANNELS, e.g. 48000:16:2")
        }
        if Self.delayBounds(reconnectDelay) == nil {
            throw ValidationError("invalid --reconnect-delay '\(reconnectDelay)': expected MIN:MAX seconds with 0 < MIN <= MAX, e.g. 0.5:30")
        }
        if stallTimeout <= 0 || connectTimeout <= 0 {
            throw ValidationError("timeouts must be positive")
        }
    }

    /// The PCM format; valid once `validate()` has passed.
    var format: PCMFormat { PCMFormat(pcm)! }

    /// How the live stream of `target` connects, reconnects and reads titles.
    func liveStreamOptions(for target: StreamTarget) -> LiveStreamOptions {
        var options = LiveStreamOptions()
        options.connectTimeout = connectTimeout
        options.stallTimeout = stallTimeout
        options.titleCharset = target.titleCharset
        options.reconnect.maxConsecutiveFailures = maxReconnects
        (options.reconnect.initialDelay, options.reconnect.maxDelay) = Self.delayBounds(reconnectDelay)!
        options.quality = quality
        options.startAt = from.flatMap { Timestamp.parseRecent($0) }
        return options
    }

    private static func delayBounds(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: ":").compactMap { Double($0) }
        guard parts.count == 2, parts[0] > 0, parts[0] <= parts[1] else { return nil }
        return (parts[0], parts[1])
    }
}
extension StreamQuality: ExpressibleByArgument {}
