import Foundation
import Media
import RadioModel

/// A clip's audio read from a file (or a stretch of it) and fingerprinted: decoded by FFmpeg to Chromaprint's
/// rate, mono, through the same decoder path recordings take.
public enum ClipFile {
    /// Seconds of audio a clip has at least (fewer items are confirmed too rarely) and at most (a station's
    /// matcher keeps its items and votes for as long as the longest clip).
    public static let shortest = 8
    public static let longest = 15 * 60

    /// The fingerprint of `path` from `start` for `length` seconds (nil: to its end), and the seconds it covers.
    public static func fingerprint(_ path: String, start: Double = 0, length: Double? = nil) throws(ClipError) -> (seconds: Double, fingerprint: Fingerprint) {
        let format = PCMFormat(sampleRate: Fingerprint.sampleRate, bitsPerSample: 16, channels: 1)
        guard start.isFinite, start >= 0, length.map({ $0.isFinite && $0 > 0 }) ?? true else {
            throw ClipError("\(path): a clip starts at 0 s or later and lasts more than 0 s")
        }
        do {
            let file = try MediaFile(path: path, format: format)
            if start > 0 { try file.seek(to: start) }
            let printer = try Chromaprinter()
            // One sample past the longest clip is enough to refuse a longer one; Int of a huge length would trap.
            let wanted = length.map { Int(min($0, Double(Self.longest + 1)) * Double(format.sampleRate)) } ?? .max
            var items: [UInt32] = [], samples = 0
            while samples < wanted, try file.read({ pcm in
                let taken = min(pcm.count / 2, wanted - samples)
                items += pcm.withMemoryRebound(to: Int16.self) { printer.feed(UnsafeBufferPointer(rebasing: $0.prefix(taken))) }
                samples += taken
                guard samples <= Self.longest * format.sampleRate else {
                    throw ClipError("\(path): a clip is at most \(Self.longest / 60) min long (give --length for a stretch of a longer file)")
                }
            }) {}
            items += printer.finish()
            let seconds = Double(samples) / Double(format.sampleRate)
            guard seconds >= Double(Self.shortest) else {
                throw ClipError("\(path): \(String(format: "%.1f", seconds)) s of audio is too short to be found again (a clip needs at least \(Self.shortest) s)")
            }
            return (seconds, Fingerprint(items: items))
        } catch let error as ClipError {
            throw error
        } catch {
            throw ClipError("\(path): \(error)")
        }
    }
}
