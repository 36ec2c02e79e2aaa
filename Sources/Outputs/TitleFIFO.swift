import Foundation
import Media
import RadioModel
import StreamInput

/// Writes each title that goes on air as one JSON line to a FIFO (`--meta-fifo`), for Snapcast's
/// control script (scripts/snapcast/onair-meta.py, see docs/relay.md) or any other reader:
///
///     {"title":"Artist - Title","url":"https://…"}
///
/// Like the PCM FIFO it never blocks the stream: while no reader is there the latest title waits,
/// and a reader that opens the FIFO (again) gets the current title at once, then every change.
public final class TitleFIFO: TitleConsumer, @unchecked Sendable {  // `latest`, `delivered`, `finished` inside `condition`; the FIFO on the writer thread only
    public let label: String
    private let fifo: FIFOPeer  // the writer thread's
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var latest: [UInt8]?
    private var delivered = true
    private var finished = false

    /// How often an undelivered title is retried, and a departed reader noticed.
    private static let pollInterval = 0.5
    /// Lines up to PIPE_BUF bytes reach the reader whole, never interleaved or cut.
    private static let maxLineBytes = 4096

    public init(path: String) throws {
        label = "meta-fifo:\(path)"
        fifo = try FIFOPeer(path: path, label: label)
        let thread = Thread { [self] in writeLoop() }
        thread.name = "onair-meta-fifo"
        thread.start()
    }

    public func titleChanged(_ change: TitleChange) throws {
        let line = Self.line(for: change)
        condition.withLock {
            latest = line
            delivered = false
            condition.signal()
        }
    }

    public func finish() {
        condition.withLock {
            finished = true
            condition.signal()
        }
    }

    private func writeLoop() {
        BrokenPipeSignal.blockOnThisThread()
        var isOpen = false
        /// Set after an attempt that could not deliver (no reader, a full pipe): wait before the next.
        var backOff = false
        defer { if isOpen { fifo.close() } }
        while true {
            condition.lock()
            if (delivered || backOff) && !finished { condition.wait(until: Date(timeIntervalSinceNow: Self.pollInterval)) }
            let (line, isFinished) = (delivered ? nil : latest, finished)
            condition.unlock()
            if isFinished { return }
            backOff = false

            if isOpen && !fifo.hasReader {
                fifo.close()
                isOpen = false
            }
            if !isOpen {
                isOpen = (try? fifo.open()) != nil
                // A reader that just came gets the current title, whether delivered before or not.
                if isOpen { markUndelivered() } else { backOff = true }
                continue
            }
            guard let line else { continue }
            do {
                let written = try line.withUnsafeBytes { try fifo.write($0) }
                if written == line.count { markDelivered(line) } else { backOff = true }
            } catch {
                fifo.close()
                isOpen = false
            }
        }
    }

    private func markUndelivered() {
        condition.withLock { if latest != nil { delivered = false } }
    }

    /// Delivered unless a newer title arrived meanwhile.
    private func markDelivered(_ line: [UInt8]) {
        condition.withLock { if latest == line { delivered = true } }
    }

    private static func line(for change: TitleChange) -> [UInt8] {
        struct Line: Encodable { var title: String; var url: String? }
        var title = change.title
        while true {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data = (try? encoder.encode(Line(title: title, url: change.url))) ?? Data("{}".utf8)
            if data.count < maxLineBytes || title.isEmpty { return Array(data) + [0x0A] }
            title = String(title.prefix(title.count / 2))
        }
    }
}
