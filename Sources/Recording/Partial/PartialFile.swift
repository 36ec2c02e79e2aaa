import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The growing file a recording writes while it runs, in a stream format that plays as it grows.
///
/// It only ever holds whole packets: the muxer's bytes gather in memory until `commitPacket()` says a
/// packet (or Ogg page) is complete, and only committed bytes go to disk. Should a write fail (a full
/// disk), the file is cut back to the last whole packet, so what is on disk stays playable; its owner may
/// then drop the packets that found no room and go on (`dropCommitted`).
/// Unchecked Sendable: the muxer callback that appends runs inside its owner's locked write calls.
final class PartialFile: @unchecked Sendable {  // written only inside its owning recorder's lock
    let url: URL
    private var descriptor: Int32
    /// Bytes from the muxer; the first `committed` of them are whole packets.
    private var buffer: [UInt8] = []
    private var committed = 0
    /// The container's header at the front of `buffer` while nothing is on disk: never dropped, since
    /// without it nothing after it plays.
    private var headerBytes = 0
    private(set) var bytesOnDisk: Int64 = 0

    /// Creates the file; never opens one that exists.
    init(url: URL) throws(RecordingError) {
        self.url = url
        descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw RecordingError.cannot("create", url.path, errno: errno) }
    }

    deinit { close() }

    /// Bytes the muxer wrote (its output callback): kept until the packet they belong to is complete.
    func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    /// Everything appended so far forms whole packets.
    func commitPacket() { committed = buffer.count }

    /// Everything appended so far is the container's header (only before anything reached the disk).
    func commitHeader() {
        commitPacket()
        if bytesOnDisk == 0 { headerBytes = committed }
    }

    /// Drops the committed packets that could not be written (the disk is full), all but a header still
    /// to be written: the file stays whole and goes on with later packets.
    func dropCommitted() {
        let kept = bytesOnDisk == 0 ? min(headerBytes, committed) : 0
        buffer.removeSubrange(kept..<committed)
        committed = kept
    }

    /// Bytes committed but not yet written.
    var bytesPending: Int { committed }

    /// Writes the committed bytes. On failure the file is truncated to where it was, the bytes stay
    /// pending, and the error says what happened.
    func writeOut() throws(RecordingError) {
        guard committed > 0, descriptor >= 0 else { return }
        let (count, failure) = buffer.withUnsafeBytes { writeAll(UnsafeRawBufferPointer(rebasing: $0[..<committed]), to: descriptor) }
        if let failure {
            // Part of a packet may have reached the disk: cut it off, so the file ends on a whole packet.
            _ = ftruncate(descriptor, off_t(bytesOnDisk))
            _ = lseek(descriptor, off_t(bytesOnDisk), SEEK_SET)
            throw RecordingError.cannot("write", url.path, errno: failure)
        }
        buffer.removeFirst(count)
        committed = 0
        bytesOnDisk += Int64(count)
        headerBytes = 0
    }

    /// Makes what was written survive a power cut.
    func sync() throws(RecordingError) {
        guard descriptor >= 0, fsync(descriptor) == 0 else {
            throw RecordingError.cannot("sync", url.path, errno: errno)
        }
    }

    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }
}
