import Foundation
import RadioModel
import Recording

/// What is deleted to make room, in one place: a rule's `--keep N` (its newest N done episodes stay)
/// and `--keep-days D` (episodes that finished less than D days ago stay), and the daemon's
/// `--min-free`. An episode retention picks loses its recordings (files, cue sheets, index entries),
/// and its row once none is left; a kept recording stays, and so does its episode.
public enum Retention {
    /// Applies the rule's limits; returns what was deleted.
    @discardableResult
    public static func apply(to rule: ScheduleRule, store: any ScheduleStorage, index: any RecordingsIndexing,
                             now: Date = Date()) throws -> [RecordingDeletion] {
        try apply(to: [rule], store: store, index: index, now: now)
    }

    /// Applies each rule's limits, reading the index once.
    public static func apply(to rules: [ScheduleRule], store: any ScheduleStorage, index: any RecordingsIndexing,
                             now: Date = Date()) throws -> [RecordingDeletion] {
        let limited = rules.filter { $0.keep != nil || $0.keepDays != nil }
        guard !limited.isEmpty else { return [] }
        let indexed = Dictionary(try index.all().map { ($0.file, $0) }, uniquingKeysWith: { first, _ in first })
        var deleted: [RecordingDeletion] = []
        for rule in limited {
            deleted += try apply(to: rule, store: store, index: index, indexed: indexed, now: now)
        }
        return deleted
    }

    private static func apply(to rule: ScheduleRule, store: any ScheduleStorage, index: any RecordingsIndexing,
                              indexed: [String: IndexedRecording], now: Date) throws -> [RecordingDeletion] {
        guard let ruleID = rule.id else { return [] }
        // Newest first.
        let done = try store.episodes(ruleID: ruleID).filter { $0.status == .done }
        var deleted: [RecordingDeletion] = []
        for (position, episode) in done.enumerated() {
            let recordings = episode.files.compactMap { indexed[$0] }
            let finished = recordings.map(\.endUTC).max() ?? episode.windowEnd
            let reason: RetentionReason
            if let keep = rule.keep, position >= keep {
                reason = .keepNewest(keep)
            } else if let days = rule.keepDays, now.timeIntervalSince(finished) > Double(days) * 86_400 {
                reason = .keepDays(days)
            } else {
                continue
            }
            // Files the index no longer lists were forgotten by hand (`recordings remove --keep-file`): left alone.
            var remaining: [String] = []
            for recording in recordings {
                if let deletion = try recording.deleteForRetention(from: index, because: reason, at: now) {
                    deleted.append(deletion)
                } else {
                    remaining.append(recording.file)
                }
            }
            if remaining.isEmpty {
                try store.delete(episode)
            } else if remaining != episode.files {
                var shorter = episode
                shorter.files = remaining
                try store.update(shorter)
            }
        }
        return deleted
    }
}

/// What retention is set to and what it did lately: part of the daemon's status.
public struct RetentionStatus: Codable, Sendable {
    /// `--min-free`, in bytes; nil when not set.
    public var minFree: Int64?
    /// Bytes free on the recordings' file system when last looked at.
    public var freeBytes: Int64?
    /// The latest deletions, newest first.
    public var lastDeletions: [RecordingDeletion]
}

/// Runs retention for the daemon: the rules' limits after each episode, on start and on each
/// sweep, and `--min-free` on each sweep. One at a time (the scheduler's loop and the recorders'
/// threads both call it), and it keeps the latest deletions for the status.
final class RetentionKeeper: @unchecked Sendable {  // `recent`, and every run, inside `recent`'s lock
    /// How many deletions the status shows.
    static let remembered = 20

    private let store: any ScheduleStorage
    private let index: any RecordingsIndexing
    private let minimumFree: MinimumFreeSpace?
    private let recordings: URL
    private let log: @Sendable (DaemonEvent) -> Void
    private let recent = Locked<[RecordingDeletion]>([])

    init(store: any ScheduleStorage, index: any RecordingsIndexing, minFree: ByteSize?, recordings: URL,
         log: @escaping @Sendable (DaemonEvent) -> Void) {
        self.store = store; self.index = index; self.recordings = recordings; self.log = log
        minimumFree = minFree.map { MinimumFreeSpace(minimum: $0) { DiskSpace.free(at: recordings) } }
    }

    // A failure (the database out of reach, a file that cannot be removed) is logged and never stops
    // what called: an episode starts, a recording is finished, whether or not room could be made.

    /// The rules' `--keep` and `--keep-days`.
    func apply(to rules: [ScheduleRule], now: Date) {
        recent.withLock { recent in
            do { note(try Retention.apply(to: rules, store: store, index: index, now: now), in: &recent) } catch { failed(error) }
        }
    }

    /// Every rule's limits (a recording ages past `--keep-days` with no episode finishing), then `--min-free`.
    func sweep(rules: [ScheduleRule], now: Date) {
        apply(to: rules, now: now)
        makeRoom(now: now)
    }

    /// `--min-free`.
    func makeRoom(now: Date) {
        guard let minimumFree else { return }
        recent.withLock { recent in
            do { note(try minimumFree.reclaim(from: index, now: now), in: &recent) } catch { failed(error) }
        }
    }

    var status: RetentionStatus {
        RetentionStatus(minFree: minimumFree?.minimum.bytes, freeBytes: DiskSpace.free(at: recordings),
                        lastDeletions: recent.current)
    }

    /// Inside `recent`'s lock.
    private func note(_ deletions: [RecordingDeletion], in recent: inout [RecordingDeletion]) {
        for deletion in deletions {
            log(DaemonEvent(.recordingDeleted, station: deletion.station, message: deletion.logLine))
        }
        recent = Array((deletions.reversed() + recent).prefix(Self.remembered))
    }

    private func failed(_ error: any Error) {
        log(DaemonEvent(.error, message: "retention: \(error)"))
    }
}
