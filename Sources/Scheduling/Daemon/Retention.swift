import Foundation
import Recording

/// `--keep N`: a rule keeps its newest N recorded episodes; older ones lose their files (and cue
/// sheets), their entries in the recordings index and their episode rows.
public enum Retention {
    /// Applies the rule's limit; returns the files deleted.
    @discardableResult
    public static func apply(to rule: ScheduleRule, store: any ScheduleStorage, index: any RecordingsIndexing) throws -> [String] {
        guard let keep = rule.keep, let ruleID = rule.id else { return [] }
        let done = try store.episodes(ruleID: ruleID).filter { $0.status == .done }
        guard done.count > keep else { return [] }
        let indexed = try index.all()
        var deleted: [String] = []
        for episode in done.dropFirst(keep) {
            for file in episode.files {
                for entry in indexed where entry.file == file {
                    _ = try index.remove(id: entry.id!)
                    if let cue = entry.cueSheet { try? FileManager.default.removeItem(atPath: cue) }
                }
                if (try? FileManager.default.removeItem(atPath: file)) != nil { deleted.append(file) }
            }
            try store.delete(episode)
        }
        return deleted
    }
}
