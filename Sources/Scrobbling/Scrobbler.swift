import Foundation
import RadioModel
import StreamInput

/// Sends listens to ListenBrainz (or a server speaking its API): each listen is kept on disk first (`ScrobbleStore`),
/// then sent in order, one request each, and taken off the queue once the server said yes — so a listen is sent once,
/// also across the server being away or onair being restarted. While the server is away the listens wait; they are
/// tried again after 5 s, doubling up to 30 s, and at once when another listen comes. The network is used from the
/// scrobbler's own queue, never from Swift's cooperative pool.
public final class Scrobbler: @unchecked Sendable {  // `retryDelay`, `failing` and `retryScheduled` only on `queue`; `stopping` in its lock
    static let firstRetry = 5.0, longestRetry = 30.0
    /// Listens sent at most once the owner stops (a command exiting, the daemon stopping): the rest wait for the next run.
    static let sentWhileStopping = 20

    public let account: ScrobbleStore.Account
    private let store: ScrobbleStore
    private let log: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "onair.scrobbler")
    private var retryDelay = Scrobbler.firstRetry
    private var failing = false
    private var retryScheduled = false
    private let stopping = Locked(false)

    /// - Parameter log: told, one line each, when the server stops answering (once until it answers again) and
    ///   when it refuses a listen for good.
    public init(store: ScrobbleStore, account: ScrobbleStore.Account, log: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.account = account
        self.log = log
        queue.async { self.drain() }  // what an earlier run left
    }

    /// A listen heard: kept, then sent in its turn.
    public func heard(_ listen: Listen) {
        queue.async {
            do { try self.store.enqueue(listen) } catch { self.log("\(error)") }
            self.drain()
        }
    }

    /// What is on now: sent once, not kept (it is stale by the time the server answers again).
    public func playingNow(_ listen: Listen) {
        queue.async { _ = self.send(ListenSubmission(.playingNow, listen)) }
    }

    /// Waits until what was handed in so far has been tried (a command's last listens before it exits), sending no more
    /// than `sentWhileStopping` of a backlog: what is left waits for the next run.
    public func waitUntilTried() {
        stopping.withLock { $0 = true }
        queue.sync {}
    }

    // MARK: On `queue`

    private enum Outcome {
        case sent
        /// The server will never take it (a 4xx other than 401, 403, 408 and 429): it is let go.
        case refused(String)
        /// Away, busy, or refusing the token: tried again later.
        case unavailable(String)
    }

    private func drain() {
        // Another onair process sends the queue now: it takes these too.
        if !store.sendingAlone(sendQueue) { retryLater() }
    }

    private func sendQueue() {
        var sent = 0
        do {
            while let (id, listen) = try store.oldest() {
                if sent >= Self.sentWhileStopping, stopping.current { return }
                sent += 1
                switch send(ListenSubmission(.single, listen)) {
                case .sent:
                    try store.remove(id)
                    if failing { log("ListenBrainz at \(URLRedaction.redact(account.server)) answers again") }
                    (failing, retryDelay) = (false, Self.firstRetry)
                case .refused(let reason):
                    log("ListenBrainz refused the listen of \"\(listen.artist) - \(listen.track)\" for good: \(reason)")
                    try store.remove(id)
                case .unavailable(let reason):
                    if !failing {
                        let waiting = (try? store.queued()) ?? 0
                        log("ListenBrainz at \(URLRedaction.redact(account.server)): \(reason); \(waiting) listen(s) kept, sent once it answers")
                    }
                    failing = true
                    retryLater()
                    return
                }
            }
        } catch {
            log("\(error)")
        }
    }

    private func retryLater() {
        guard !retryScheduled else { return }
        retryScheduled = true
        let delay = retryDelay
        retryDelay = min(retryDelay * 2, Self.longestRetry)
        queue.asyncAfter(deadline: .now() + delay) {
            self.retryScheduled = false
            self.drain()
        }
    }

    private func send(_ submission: ListenSubmission) -> Outcome {
        let url = account.server.hasSuffix("/") ? account.server + "1/submit-listens" : account.server + "/1/submit-listens"
        let request = TransferRequest(url: url, headers: [("Authorization", "Token \(account.token)"), ("Content-Type", "application/json")],
                                      connectTimeout: 10, stallTimeout: 20, maxRedirects: 0, body: submission.json, keepsErrorBody: true)
        do {
            let response = try TransferEngine.shared.fetch(request, maxBytes: 64 * 1024)
            return (200..<300).contains(response.head.status) ? .sent : .unavailable("it answered \(response.head.status)")
        } catch let error as TransferError {
            switch error.status {
            case 401?, 403?: return .unavailable("the token is refused (\(error.status!)): onair scrobble login")
            case 408?, 429?: return .unavailable(error.message)
            case let status? where (400..<500).contains(status):
                return .refused("\(status) \(String(decoding: (error.body ?? Data()).prefix(200), as: UTF8.self))")
            default: return .unavailable(error.message)
            }
        } catch {
            return .unavailable("\(error)")
        }
    }
}
