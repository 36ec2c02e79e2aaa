import Foundation

/// The schedule's rules and episodes, wherever they are kept: `ScheduleStore` (the SQLite file, one
/// box) or `PostgresScheduleStore` (one PostgreSQL database shared by several daemons).
public protocol ScheduleStorage: Sendable {
    func add(_ rule: ScheduleRule) throws(ScheduleError) -> ScheduleRule
    /// Every rule, oldest first.
    func rules() throws(ScheduleError) -> [ScheduleRule]
    func rule(id: Int64) throws(ScheduleError) -> ScheduleRule?
    /// Removes a rule and its episodes' rows (finished files stay, and stay in the recordings index).
    func remove(ruleID: Int64) throws(ScheduleError) -> ScheduleRule?
    /// Pauses or resumes a rule; nil if there is no such rule.
    func setPaused(ruleID: Int64, _ paused: Bool) throws(ScheduleError) -> ScheduleRule?
    /// The episodes of these rules' occurrences, in order, each created as `status` if it is not there yet,
    /// in one transaction: hundreds of episodes due at once cost one commit, not hundreds.
    @discardableResult
    func episodes(of due: [DueOccurrence], creatingAs status: EpisodeStatus, reason: String?) throws(ScheduleError) -> [Episode]
    /// Episodes with `status`, earliest window first.
    func episodes(status: EpisodeStatus) throws(ScheduleError) -> [Episode]
    /// Episodes, newest first; of one rule if given.
    func episodes(ruleID: Int64?, limit: Int) throws(ScheduleError) -> [Episode]
    func episode(id: Int64) throws(ScheduleError) -> Episode?
    /// Changes episodes in one transaction, stamping the time of the change.
    func update(_ episodes: [Episode]) throws(ScheduleError)
    /// Changes an episode as the database holds it now, in one transaction that locks it, so that
    /// two daemons adding parts to it at once both keep theirs; nil if there is no such episode.
    @discardableResult
    func updateEpisode(id: Int64, _ change: (inout Episode) -> Void) throws(ScheduleError) -> Episode?
    func delete(_ episode: Episode) throws(ScheduleError)
    /// Failed and missed episodes, newest first.
    func recentFailures(limit: Int) throws(ScheduleError) -> [Episode]
    /// A number that changes whenever the rules may have changed: a cheap way for the daemon to
    /// notice `onair schedule` changes.
    func changeCounter() throws(ScheduleError) -> Int
}

/// A rule's occurrence whose episode is due to exist.
public struct DueOccurrence: Sendable {
    public var rule: ScheduleRule
    public var occurrence: Occurrence

    public init(_ rule: ScheduleRule, _ occurrence: Occurrence) { self.rule = rule; self.occurrence = occurrence }
}

extension ScheduleStorage {
    /// The episode of `rule` for `occurrence`, created as `status` if it is not there yet.
    @discardableResult
    public func episode(of rule: ScheduleRule, _ occurrence: Occurrence, creatingAs status: EpisodeStatus = .scheduled,
                        reason: String? = nil) throws(ScheduleError) -> Episode {
        try episodes(of: [DueOccurrence(rule, occurrence)], creatingAs: status, reason: reason)[0]
    }

    /// Changes an episode, stamping the time of the change.
    public func update(_ episode: Episode) throws(ScheduleError) {
        try update([episode])
    }

    public func episodes(ruleID: Int64? = nil) throws(ScheduleError) -> [Episode] {
        try episodes(ruleID: ruleID, limit: 1000)
    }
}
