import Foundation
import Hummingbird
import HummingbirdAuth
import NIOPosix
import Outputs
import RadioModel

/// Who may use the daemon's HTTP server: nobody is asked anything while no credential is set (only
/// this machine can be served then); once a password or a token exists, every page, API call, feed and
/// live mount needs a login session's cookie, a bearer token, or (feeds and their enclosures) the
/// feed's secret `?token=`.
public final class WebAccess: Sendable {
    /// A login: its CSRF token, which every state-changing request with the session's cookie must carry.
    struct Session: Codable, Sendable {
        var csrf: String
    }

    public let credentials: WebCredentials
    /// The token the pages' forms carry while nobody logs in: made at start, known only to pages this
    /// daemon served (another site cannot read them: `SiteGuard`), so a form posted from elsewhere lacks it.
    let formToken: String
    /// hummingbird-auth's session storage, in the database: a restarted daemon keeps its logins.
    let sessions: SessionStorage<Session>
    let throttle = LoginThrottle(failures: 5, within: 60)
    static let sessionLength: Duration = .seconds(7 * 24 * 3600)

    /// `formToken` is for the tests, which post forms as the pages would.
    public init(credentials: WebCredentials, formToken: String? = nil) {
        self.credentials = credentials
        self.formToken = formToken ?? WebCredentials.randomHex()
        let cookie = SessionCookieParameters(name: "onair_session", path: "/", sameSite: .strict)
        sessions = SessionStorage(StoredSessions(credentials: credentials), configuration: SessionStorageConfiguration(sessionCookieParameters: cookie))
    }

    /// The credentials now, read off the event loop.
    func snapshot() async throws -> WebCredentials.Snapshot {
        let credentials = self.credentials
        return try await NIOThreadPool.singleton.runIfActive { try credentials.snapshot() }
    }

    /// For the page the request is shown: the CSRF token of its forms — the login session's, or the
    /// daemon's own while no credential is set; nil when a login is needed and there is none — and
    /// whether a login session is in use (the page then offers to log out).
    public func forms(for request: Request) async -> (csrf: String?, loggedIn: Bool) {
        if let session = try? await sessions.load(request: request) { return (session.csrf, true) }
        return ((try? await snapshot())?.isConfigured == false ? formToken : nil, false)
    }

    /// `path` (a feed) as a podcast app is given it, with the credentials as they are now. Blocking (SQLite).
    public func feedAddress(_ path: String) -> String {
        guard let snapshot = try? credentials.snapshot() else { return path }
        return feedAddress(path, with: snapshot)
    }

    /// `path` (a feed, an enclosure) as a podcast app is given it: with the feed's secret token once credentials exist.
    func feedAddress(_ path: String, with snapshot: WebCredentials.Snapshot) -> String {
        guard snapshot.isConfigured, let token = snapshot.feedToken(for: path) else { return path }
        return path + "?token=" + token
    }
}

/// Failed logins counted per client address: after `failures` within `within` seconds, the address is
/// refused until the oldest of them is that old. Our own: neither Hummingbird nor hummingbird-auth has a rate limiter.
final class LoginThrottle: Sendable {
    private let failures: Int
    private let window: TimeInterval
    private let recent = Locked<[String: [Date]]>([:])

    init(failures: Int, within window: TimeInterval) {
        self.failures = failures
        self.window = window
    }

    /// Seconds until `client` may try again; nil when it may now.
    func retryAfter(_ client: String, now: Date = Date()) -> Int? {
        recent.withLock { recent in
            let kept = (recent[client] ?? []).filter { now.timeIntervalSince($0) < window }
            recent[client] = kept.isEmpty ? nil : kept
            guard kept.count >= failures, let oldest = kept.first else { return nil }
            return max(1, Int((window - now.timeIntervalSince(oldest)).rounded(.up)))
        }
    }

    func failed(_ client: String, now: Date = Date()) {
        recent.withLock { $0[client, default: []].append(now) }
    }
}
