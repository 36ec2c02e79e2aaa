import Crypto
import Daemon
import Foundation
import HTTPServing
import Hummingbird
import NIOPosix
import Outputs
import RadioModel
import Subsonic

/// The Subsonic API under `/rest/` (`/rest/ping` and `/rest/ping.view` alike, GET or a posted form), so Subsonic
/// phone apps browse and play what the box holds. Its requests carry their own credentials, which
/// `AccessMiddleware` leaves to this route: the web password (`p=`), onair's API tokens (`apiKey=`), or the
/// app password's MD5 with a salt (`t=`, `s=`). Wrong ones count against the same budget as failed logins.
/// The endpoints themselves are `SubsonicEndpoints`, run inside the facade's `perform`.
struct SubsonicRoutes: Sendable {
    let facade: DaemonFacade
    let access: WebAccess?
    let site: SitePolicy
    /// Web passwords recently accepted, so an app sending `p=` with every request costs one bcrypt, not one each.
    private let accepted = AcceptedPasswords()

    init(facade: DaemonFacade, access: WebAccess?, site: SitePolicy) {
        (self.facade, self.access, self.site) = (facade, access, site)
    }

    func add(to router: Router<ClientRequestContext>) {
        for method in [HTTPRequest.Method.get, .post] {
            router.on("/rest/{endpoint}", method: method) { request, context in try await answer(request, context: context) }
        }
    }

    private func answer(_ request: Request, context: ClientRequestContext) async throws -> Response {
        var parameters = RequestParsing.fields(Substring(request.uri.query ?? ""))
        if request.method == .post, request.headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true {
            let body = try await request.body.collect(upTo: 1 << 20)
            parameters.merge(RequestParsing.fields(Substring(String(buffer: body)))) { $0 + $1 }
        }
        var endpoint = context.parameters.get("endpoint") ?? ""
        if endpoint.hasSuffix(".view") { endpoint.removeLast(".view".count) }
        let format: SubsonicFormat
        do { format = try SubsonicFormat(parameter: parameters["f"]?.first) } catch { return Self.response(SubsonicAnswer.failure(error, format: .xml), .xml) }
        do {
            let snapshot = try await authenticate(parameters, client: LoginThrottle.client(of: request, peer: context.remoteAddress?.ipAddress))
            guard SubsonicEndpoints.names.contains(endpoint) else {
                throw SubsonicError(.notFound, "the endpoint '\(endpoint.prefix(60))' is not offered by onair")
            }
            let streamURL = liveAddress(request, snapshot: snapshot)
            let subsonicRequest = SubsonicRequest(endpoint: endpoint, parameters: parameters)
            let headers = request.headers
            let outcome = try await facade.perform { daemon -> Result<SubsonicOutcome, SubsonicError> in
                Result { () throws(SubsonicError) in try SubsonicEndpoints(daemon: daemon, streamURL: streamURL).answer(subsonicRequest) }
            }.get()
            switch outcome {
            case .answer(let payload):
                return Self.response(SubsonicAnswer.ok(payload, format: format), format)
            case .redirect(let url):
                return Response(status: .found, headers: [.location: url])
            case .image(let artwork):
                return Response(status: .ok, headers: [.contentType: artwork.contentType, .cacheControl: "private, max-age=86400"],
                                body: ResponseBody(byteBuffer: ByteBuffer(bytes: artwork.data)))
            case .file(let file, let directory):
                let file = try await facade.perform { _ in
                    Result { try RecordingFile.answer(to: headers, file: file, within: directory) }
                }
                switch file {
                case .success(let answer): return try await RecordingFile.response(answer, context: context)
                case .failure: throw SubsonicError.notFound("the file")
                }
            }
        } catch let error as SubsonicError {
            return Self.response(SubsonicAnswer.failure(error, format: format), format)
        }
    }

    private static func response(_ text: String, _ format: SubsonicFormat) -> Response {
        Response(status: .ok, headers: [.contentType: format.contentType, .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// Who the request is, or the spec's error; the credentials as they are now when it is accepted.
    private func authenticate(_ parameters: [String: [String]], client: String) async throws(SubsonicError) -> WebCredentials.Snapshot {
        let credential = try SubsonicCredential(parameters: parameters.compactMapValues(\.first))
        guard let access, let snapshot = try? await access.snapshot(), snapshot.isConfigured else {
            throw SubsonicError(.wrongCredentials, "this box has no web password yet: set one with `onair web password` on it")
        }
        if let wait = access.throttle.retryAfter(client) {
            throw SubsonicError(.wrongCredentials, "too many wrong credentials from this address: try again in \(wait) s")
        }
        let user = parameters["u"]?.first
        let credentials = access.credentials
        let accepted: Bool
        switch credential {
        case .apiKey(let key):
            guard snapshot.accepts(token: key) else {
                access.throttle.failed(client)
                throw SubsonicError(.invalidAPIKey, "the API key is not one of this box's: create one with `onair web token create NAME`")
            }
            return snapshot
        case .password(let password):
            let remembered = self.accepted
            accepted = try await Self.blocking { () throws -> Bool in
                guard user == SubsonicCredential.userName else { return false }
                if remembered.contains(password, snapshot: snapshot) { return true }
                if let appPassword = try credentials.appPassword(), Secrets.equal(appPassword, password) { return true }
                guard credentials.verifyPassword(password, against: snapshot) else { return false }
                remembered.insert(password, snapshot: snapshot)
                return true
            }
        case .token(let token, let salt):
            guard let appPassword = try await Self.blocking({ try credentials.appPassword() }) else {
                throw SubsonicError(.tokenAuthenticationNotSupported,
                                    "token authentication needs an app password: make one with `onair web app-password` on the box, or send the web password")
            }
            accepted = user == SubsonicCredential.userName && SubsonicCredential.token(token, salt: salt, matches: appPassword)
        }
        guard accepted else {
            access.throttle.failed(client)
            throw SubsonicError(.wrongCredentials, "wrong user name or password (the user is `onair`)")
        }
        return snapshot
    }

    private static func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws(SubsonicError) -> T {
        do { return try await NIOThreadPool.singleton.runIfActive(work) } catch {
            throw SubsonicError(.generic, "\(error)")
        }
    }

    /// A station's live mount as an app opens it: on the public URL, else the address the request came to,
    /// with its secret token (an app cannot log in to play a URL).
    private func liveAddress(_ request: Request, snapshot: WebCredentials.Snapshot) -> @Sendable (Station) -> String {
        let base = site.publicOrigin ?? "http://" + (request.head.authority ?? "127.0.0.1")
        let access = access
        return { station in
            let path = "/live/" + (station.id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? station.id)
            return base + (access?.feedAddress(path, with: snapshot) ?? path)
        }
    }
}

/// Web passwords that were accepted, remembered by an HMAC under a key of this process's for ten minutes
/// and only while the stored password is the same one.
private final class AcceptedPasswords: Sendable {
    private let key = SymmetricKey(size: .bits256)
    private let remembered = Locked<[Data: Date]>([:])

    private func digest(_ password: String, _ snapshot: WebCredentials.Snapshot) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: Data(((snapshot.passwordHash ?? "") + "\u{0}" + password).utf8), using: key))
    }

    func contains(_ password: String, snapshot: WebCredentials.Snapshot) -> Bool {
        let digest = digest(password, snapshot)
        return remembered.withLock { ($0[digest] ?? .distantPast) > Date() }
    }

    func insert(_ password: String, snapshot: WebCredentials.Snapshot) {
        let digest = digest(password, snapshot)
        remembered.withLock { remembered in
            remembered = remembered.filter { $0.value > Date() }
            if remembered.count < 64 { remembered[digest] = Date().addingTimeInterval(600) }
        }
    }
}
