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
        // A form's body before its credentials are known: bounded as a login's is, in size and in fields.
        if request.method == .post, request.headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true {
            let body = try await request.body.collect(upTo: 256 * 1024)
            parameters.merge(RequestParsing.fields(Substring(String(buffer: body)))) { $0 + $1 }
        }
        var endpoint = context.parameters.get("endpoint") ?? ""
        if endpoint.hasSuffix(".view") { endpoint.removeLast(".view".count) }
        let format: SubsonicFormat
        do { format = try SubsonicFormat(parameter: parameters["f"]?.first) } catch { return Self.response(SubsonicAnswer.failure(error, format: .xml), .xml) }
        do {
            // A page of another site may make the browser ask (an image, a link): no Subsonic app sends this header.
            if let site = request.headers.first(where: { $0.name.canonicalName == "sec-fetch-site" })?.value, ["cross-site", "same-site"].contains(site) {
                throw SubsonicError(.notAuthorized, "the Subsonic API does not answer pages of other sites")
            }
            let snapshot = try await authenticate(parameters, client: LoginThrottle.client(of: request, peer: context.remoteAddress?.ipAddress))
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

    /// Who the request is, or the spec's error; the credentials as they are now when it is accepted. The app
    /// password and the API tokens are long random secrets, checked at once; the web password may be a weak one, so
    /// each try at it takes a place in the login's budget before bcrypt runs (`LoginThrottle.reserve`).
    private func authenticate(_ parameters: [String: [String]], client: String) async throws(SubsonicError) -> WebCredentials.Snapshot {
        let credential = try SubsonicCredential(parameters: parameters.compactMapValues(\.first))
        guard let access else { throw Self.unconfigured }
        let snapshot: WebCredentials.Snapshot
        do { snapshot = try await access.snapshot() } catch {
            throw SubsonicError(.generic, "the box's credentials cannot be read: \(error)")
        }
        guard snapshot.isConfigured else { throw Self.unconfigured }
        let rightUser = parameters["u"]?.first == SubsonicCredential.userName
        let credentials = access.credentials
        // Unreadable (its key file lost, say), it is as if there were none: the owner sees why from the command line.
        let appPassword = { [facade] () async -> String? in
            snapshot.hasAppPassword ? ((try? await facade.perform { _ in try credentials.appPassword() }) ?? nil) : nil
        }
        switch credential {
        case .apiKey(let key):
            guard snapshot.accepts(token: key) else {
                throw SubsonicError(.invalidAPIKey, "the API key is not one of this box's: create one with `onair web token create NAME`")
            }
        case .token(let token, let salt):
            guard let appPassword = await appPassword() else {
                throw SubsonicError(.tokenAuthenticationNotSupported,
                                    "token authentication needs an app password: make one with `onair web app-password` on the box, or send the web password")
            }
            guard rightUser, SubsonicCredential.token(token, salt: salt, matches: appPassword) else { throw Self.wrongCredentials }
        case .password(let password):
            if rightUser, let appPassword = await appPassword(), Secrets.equal(password, appPassword) { return snapshot }
            if rightUser, accepted.contains(password, snapshot: snapshot) { return snapshot }
            if let wait = access.throttle.reserve(client) {
                throw SubsonicError(.wrongCredentials, "too many wrong passwords from this address: try again in \(wait) s")
            }
            guard rightUser, (try? await facade.perform({ _ in credentials.verifyPassword(password, against: snapshot) })) == true else {
                throw Self.wrongCredentials
            }
            access.throttle.succeeded(client)
            accepted.insert(password, snapshot: snapshot)
        }
        return snapshot
    }

    private static let unconfigured = SubsonicError(.wrongCredentials, "this box has no web password yet: set one with `onair web password` on it")
    private static let wrongCredentials = SubsonicError(.wrongCredentials, "wrong user name or password (the user is `onair`)")

    /// A station's live mount as an app opens it: on the public URL, else the address the request came to,
    /// with its secret token (an app cannot log in to play a URL).
    private func liveAddress(_ request: Request, snapshot: WebCredentials.Snapshot) -> @Sendable (Station) -> String {
        let base = site.publicOrigin ?? "http://" + (request.head.authority ?? "127.0.0.1")
        let access = access
        return { station in
            let path = "/live/" + (station.id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? station.id)
            return base + (access?.appAddress(path, with: snapshot) ?? path)
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
