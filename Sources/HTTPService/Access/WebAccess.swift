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
    let throttle: LoginThrottle
    static let sessionLength: Duration = .seconds(7 * 24 * 3600)

    /// `formToken` and `clock` (the login throttle's) are for the tests, which post forms as the pages would
    /// and stop the clock to count failures without their pace mattering.
    public init(credentials: WebCredentials, formToken: String? = nil, clock: @escaping @Sendable () -> Date = Date.init) {
        self.credentials = credentials
        throttle = LoginThrottle(failures: 5, overall: 20, within: 60, clock: clock)
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

    /// `path` (a live mount) as a Subsonic app is given it: with the app's secret token.
    func appAddress(_ path: String, with snapshot: WebCredentials.Snapshot) -> String {
        guard snapshot.isConfigured, let token = snapshot.appToken(for: path) else { return path }
        return path + "?token=" + token
    }

    /// `path` (a feed, an enclosure) as a podcast app is given it: with the feed's secret token once credentials exist.
    func feedAddress(_ path: String, with snapshot: WebCredentials.Snapshot) -> String {
        guard snapshot.isConfigured, let token = snapshot.feedToken(for: path) else { return path }
        return path + "?token=" + token
    }
}

/// Failed logins, counted per client and overall. A client (`client(of:)`) is refused after `failures`
/// within `window` seconds, until the oldest of them is that old. All clients together draw on one budget
/// of `overall` failures, refilled steadily over the window: a guess spread over many addresses is held
/// to that pace, and while it lasts every client waits seconds (never a window) for its next try, so no
/// one can lock the others out. A try is counted when it is taken (`reserve`) and given back when it was right. Our own: neither Hummingbird nor hummingbird-auth has a rate limiter.
final class LoginThrottle: Sendable {
    private struct State {
        var recent: [String: [Date]] = [:]
        var budget: Double
        var refilled: Date
    }

    private let failures: Int
    private let window: TimeInterval
    private let overall: Double
    private let clock: @Sendable () -> Date
    private let state: Locked<State>

    init(failures: Int, overall: Int, within window: TimeInterval, clock: @escaping @Sendable () -> Date) {
        self.failures = failures
        self.window = window
        self.overall = Double(overall)
        self.clock = clock
        state = Locked(State(budget: Double(overall), refilled: clock()))
    }

    /// Takes one try for `client`, counted as a failure until `succeeded` gives it back: nil when it may try now,
    /// else the seconds until it may. Counting before the password is checked (bcrypt takes a while) is what keeps
    /// many tries sent at once from all passing the count.
    func reserve(_ client: String) -> Int? {
        let now = clock()
        return state.withLock { state in
            refill(&state, now: now)
            let kept = (state.recent[client] ?? []).filter { now.timeIntervalSince($0) < window }
            state.recent[client] = kept.isEmpty ? nil : kept
            if kept.count >= failures, let oldest = kept.first {
                return max(1, Int((window - now.timeIntervalSince(oldest)).rounded(.up)))
            }
            guard state.budget >= 1 else { return max(1, Int(((1 - state.budget) * window / overall).rounded(.up))) }
            state.recent[client, default: []].append(now)
            state.budget -= 1
            return nil
        }
    }

    /// The try `reserve` took was right: it is not a failure.
    func succeeded(_ client: String) {
        state.withLock { state in
            if var recent = state.recent[client], !recent.isEmpty {
                recent.removeLast()
                state.recent[client] = recent.isEmpty ? nil : recent
            }
            state.budget = min(overall, state.budget + 1)
        }
    }

    private func refill(_ state: inout State, now: Date) {
        state.budget = min(overall, state.budget + max(0, now.timeIntervalSince(state.refilled)) * overall / window)
        state.refilled = now
    }

    /// Who is trying: the peer's address, or, when the peer is this box (a reverse proxy in front of the
    /// daemon, as SECURITY.md sets one up), the address the proxy names last in `X-Forwarded-For` —
    /// behind a proxy every client would otherwise be one, and one guesser would lock everyone out.
    static func client(of request: Request, peer: String?) -> String {
        guard let peer else { return "unknown" }
        guard peer == "127.0.0.1" || peer == "::1",
              let forwarded = request.headers.last(where: { $0.name.canonicalName == "x-forwarded-for" })?.value.split(separator: ",").last
        else { return peer }
        return forwarded.trimmingCharacters(in: .whitespaces)
    }
}
