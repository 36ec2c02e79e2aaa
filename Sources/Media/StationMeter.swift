import CFFmpeg
import Foundation
import Synchronization

/// What a station's decode thread measured of the audio passing through it: bytes and seconds
/// received, seconds decoded, when the last packet came, and how long the decoded audio has been
/// quiet (or not) in a row. Dead-air and down alerts and the metrics read it from other threads.
///
/// How it stays cheap on the decode thread: each figure is one atomic, updated with a relaxed add or
/// store once per packet or per decoded frame (about 40 a second) — no lock, no allocation. The level
/// is the mean square of the frame's samples as the decoder gave them (no resampling, no second
/// decode), compared with the quiet level squared, so no logarithm is taken per frame.
///
/// One meter may outlive its connections: a daemon keeps one per station, so its counts run on
/// across reconnects and a quiet stretch is not reset by a reconnection.
public final class StationMeter: Sendable {
    /// Decoded audio below this level (dBFS, RMS over all channels) counts as quiet; nil measures no level.
    public let quietLevel: Double?
    private let quietMeanSquare: Double

    private let bytes = Atomic<Int64>(0)
    private let receivedMicroseconds = Atomic<Int64>(0)
    private let decodedMicroseconds = Atomic<Int64>(0)
    private let quietRunMicroseconds = Atomic<Int64>(0)
    private let soundRunMicroseconds = Atomic<Int64>(0)
    /// Monotonic nanoseconds (`DispatchTime.uptimeNanoseconds`) of the last audio packet; 0 before the first.
    private let lastPacketUptime = Atomic<UInt64>(0)

    public init(quietBelow level: Double? = nil) {
        quietLevel = level
        quietMeanSquare = level.map { pow(10, $0 / 10) } ?? 0
    }

    /// Whether the pipeline must decode even when no consumer takes PCM: a level is to be measured.
    public var measuresLevel: Bool { quietLevel != nil }

    // MARK: Read from any thread

    /// Audio bytes received: the demuxed packets (ICY metadata and container framing excluded).
    public var audioBytes: Int64 { bytes.load(ordering: .relaxed) }
    /// Seconds of audio received, decoded or copied.
    public var receivedSeconds: Double { Double(receivedMicroseconds.load(ordering: .relaxed)) / 1e6 }
    /// Seconds of audio decoded.
    public var decodedSeconds: Double { Double(decodedMicroseconds.load(ordering: .relaxed)) / 1e6 }
    /// Seconds of decoded audio below the quiet level in a row, up to the newest frame; 0 while there is sound.
    public var quietSeconds: Double { Double(quietRunMicroseconds.load(ordering: .relaxed)) / 1e6 }
    /// Seconds of decoded audio at or above the quiet level in a row; 0 while it is quiet.
    public var soundSeconds: Double { Double(soundRunMicroseconds.load(ordering: .relaxed)) / 1e6 }

    /// Seconds since the last audio packet, on the monotonic clock; nil before the first.
    public func secondsSinceLastPacket(now: DispatchTime = .now()) -> Double? {
        let last = lastPacketUptime.load(ordering: .relaxed)
        guard last > 0 else { return nil }
        return Double(now.uptimeNanoseconds &- min(last, now.uptimeNanoseconds)) / 1e9
    }

    // MARK: Decode thread

    /// An audio packet of `size` bytes arrived.
    func notePacket(size: Int) {
        bytes.wrappingAdd(Int64(size), ordering: .relaxed)
        lastPacketUptime.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
    }

    /// The packet's length in seconds, once known (its nominal frame length, or what decoding told).
    func noteReceived(seconds: Double) {
        guard seconds > 0 else { return }
        receivedMicroseconds.wrappingAdd(Int64(seconds * 1e6), ordering: .relaxed)
    }

    /// A decoded frame: counted, and its level measured if a quiet level is set.
    func measure(_ frame: UnsafePointer<AVFrame>) {
        guard let microseconds = countDecoded(frame), quietLevel != nil else { return }
        credit(isQuiet(frame) ? .quiet : .sound, microseconds: microseconds)
    }

    /// Counts a decoded frame as decoded, without taking its level; its length in microseconds.
    @discardableResult
    func countDecoded(_ frame: UnsafePointer<AVFrame>) -> Int64? {
        let samples = Int(frame.pointee.nb_samples), rate = Int64(frame.pointee.sample_rate)
        guard samples > 0, rate > 0 else { return nil }
        let microseconds = Int64(samples) * 1_000_000 / rate
        decodedMicroseconds.wrappingAdd(microseconds, ordering: .relaxed)
        return microseconds
    }

    /// Whether a decoded frame is below the quiet level. A sample format not measured counts as
    /// sound: better no alert than a false one.
    func isQuiet(_ frame: UnsafePointer<AVFrame>) -> Bool {
        (Self.meanSquare(of: frame, samples: Int(frame.pointee.nb_samples)) ?? .infinity) < quietMeanSquare
    }

    /// What a stretch of audio sounded like: quiet, sound, or both (neither run goes on through it).
    enum Level { case quiet, sound, mixed }

    /// Adds a stretch of audio to the quiet or the sound run, ending the other.
    func credit(_ credited: Level, microseconds: Int64) {
        if credited == .quiet {
            quietRunMicroseconds.wrappingAdd(microseconds, ordering: .relaxed)
        } else {
            quietRunMicroseconds.store(0, ordering: .relaxed)
        }
        if credited == .sound {
            soundRunMicroseconds.wrappingAdd(microseconds, ordering: .relaxed)
        } else {
            soundRunMicroseconds.store(0, ordering: .relaxed)
        }
    }

    /// The mean of the squared samples, full scale 1.0, over every channel; nil for a format not measured.
    static func meanSquare(of frame: UnsafePointer<AVFrame>, samples: Int) -> Double? {
        let format = AVSampleFormat(frame.pointee.format)
        let channels = Int(frame.pointee.ch_layout.nb_channels)
        guard channels > 0, let planes = frame.pointee.extended_data else { return nil }
        let planar = av_sample_fmt_is_planar(format) != 0
        let (planeCount, perPlane) = planar ? (channels, samples) : (1, samples * channels)
        var sum = 0.0
        for index in 0..<planeCount {
            guard let plane = planes[index] else { return nil }
            let raw = UnsafeRawPointer(plane)
            switch av_get_packed_sample_fmt(format) {
            case AV_SAMPLE_FMT_FLT: sum += sumOfSquares(UnsafeBufferPointer(start: raw.assumingMemoryBound(to: Float.self), count: perPlane))
            case AV_SAMPLE_FMT_DBL: sum += sumOfSquares(UnsafeBufferPointer(start: raw.assumingMemoryBound(to: Double.self), count: perPlane))
            case AV_SAMPLE_FMT_S16:
                sum += Double(sumOfSquares(UnsafeBufferPointer(start: raw.assumingMemoryBound(to: Int16.self), count: perPlane))) / (32768 * 32768)
            case AV_SAMPLE_FMT_S32:
                sum += sumOfSquares(UnsafeBufferPointer(start: raw.assumingMemoryBound(to: Int32.self), count: perPlane)) / (2147483648 * 2147483648)
            default: return nil
            }
        }
        return sum / Double(samples * channels)
    }

    // One plain loop per sample type: a generic one taking a conversion closure costs half as much
    // again, and this runs for every decoded frame (about 4 µs for a stereo MP3 frame, optimised).
    private static func sumOfSquares(_ samples: UnsafeBufferPointer<Float>) -> Double {
        // Eight running sums: with one, every addition waits for the last (the compiler may not
        // reorder float additions), and the decoders' float output is what nearly every station gives.
        guard let start = samples.baseAddress else { return 0 }
        var lanes = SIMD8<Float>()
        var index = 0
        while index + 8 <= samples.count {
            let eight = UnsafeRawPointer(start + index).loadUnaligned(as: SIMD8<Float>.self)
            lanes += eight * eight
            index += 8
        }
        var sum = lanes.sum()
        while index < samples.count { sum += samples[index] * samples[index]; index += 1 }
        return Double(sum)
    }

    private static func sumOfSquares(_ samples: UnsafeBufferPointer<Double>) -> Double {
        var sum = 0.0
        for sample in samples { sum += sample * sample }
        return sum
    }

    private static func sumOfSquares(_ samples: UnsafeBufferPointer<Int16>) -> Int64 {
        var sum: Int64 = 0
        for sample in samples { sum += Int64(Int32(sample) * Int32(sample)) }
        return sum
    }

    private static func sumOfSquares(_ samples: UnsafeBufferPointer<Int32>) -> Double {
        var sum = 0.0
        for sample in samples { sum += Double(sample) * Double(sample) }
        return sum
    }
}
