import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A recording's journal file, one JSON object per line, held under an exclusive lock while it is
/// open: `onair recover` leaves alone what another process is still recording (the lock goes with the
/// process, however it dies).
final class Journal {
    let url: URL
    private var descriptor: Int32

    /// Creates the journal (`create`) or opens an existing one, and takes its lock; fails at once
    /// when another process holds it.
    init(url: URL, create: Bool) throws(RecordingError) {
        self.url = url
        descriptor = open(url.path, O_RDWR | O_APPEND | O_CLOEXEC | (create ? O_CREAT | O_EXCL : 0), 0o644)
        guard descriptor >= 0 else { throw RecordingError.cannot("open", url.path, errno: errno) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            Glibc.close(descriptor)
            descriptor = -1
            throw RecordingError("\(url.path) is in use by a running recording", isInUse: true)
        }
        // A journal whose last line was cut short (a crash, or a disk that stayed full): what is appended
        // begins on a line of its own, so the torn line does not take the next one with it.
        var last: UInt8 = 0x0A
        if !create, pread(descriptor, &last, 1, max(0, lseek(descriptor, 0, SEEK_END) - 1)) == 1, last != 0x0A {
            unwritten = [0x0A]
        }
    }

    deinit { close() }

    /// Lines (or the rest of one) the disk had no room for: written before anything else, once there is.
    private var unwritten: [UInt8] = []
    /// How much may wait for room before the journal gives up: hours of titles, since the recording
    /// notes nothing else while it cannot write.
    static let maxUnwrittenBytes = 1 << 20

    /// Appends an entry. On a full disk it waits in memory, whole, for the next append or sync.
    func append(_ entry: JournalEntry) throws(RecordingError) {
        let line: Data
        do {
            line = try Self.encoder.encode(entry)
        } catch {
            throw RecordingError("cannot encode a journal entry: \(error)")
        }
        unwritten.append(contentsOf: line)
        unwritten.append(0x0A)
        try writeUnwritten()
    }

    /// Makes the entries survive a power cut; while some wait for room, there is nothing more to make durable.
    func sync() throws(RecordingError) {
        try writeUnwritten()
        guard unwritten.isEmpty else { return }
        guard fsync(descriptor) == 0 else { throw RecordingError.cannot("sync", url.path, errno: errno) }
    }

    private func writeUnwritten() throws(RecordingError) {
        guard !unwritten.isEmpty else { return }
        let (written, code) = unwritten.withUnsafeBytes { writeAll($0, to: descriptor) }
        // A line cut short by a full disk is completed from where it stopped, never written twice.
        unwritten.removeFirst(written)
        guard let code else { return }
        let failure = RecordingError.cannot("write", url.path, errno: code)
        if !failure.isNoRoom || unwritten.count > Self.maxUnwrittenBytes { throw failure }
    }

    /// The entries written so far; a line torn by a crash (the last one) is left out.
    func entries() throws(RecordingError) -> [JournalEntry] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw RecordingError("cannot read \(url.path): \(error.localizedDescription)")
        }
        return data.split(separator: 0x0A).compactMap { try? Self.decoder.decode(JournalEntry.self, from: Data($0)) }
    }

    /// The start entry of the journal at `url`, read without taking its lock (the recording may be
    /// running): its first line, at most 64 KiB of it.
    static func start(of url: URL) -> RecordingStart? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 65_536), let line = head.split(separator: 0x0A).first,
              case .start(let start)? = try? decoder.decode(JournalEntry.self, from: Data(line)) else { return nil }
        return start
    }

    /// Releases the lock.
    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }()

    /// `.NAME.partial.journal` beside `.NAME.partial.EXT`.
    static let suffix = ".partial.journal"

    static func isJournal(_ name: String) -> Bool { name.hasPrefix(".") && name.hasSuffix(suffix) }
}
