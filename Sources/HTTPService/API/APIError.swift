import Foundation
import Hummingbird
import OpenAPIRuntime
import RadioModel

/// An API failure: its status and one sentence a person can act on, sent as `{"error": "…"}`.
public struct APIError: HTTPResponseError, CustomStringConvertible {
    public let status: HTTPResponse.Status
    public let message: String
    let headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ message: String) {
        self.init(status, message, headers: [:])
    }

    init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    public var description: String { message }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = JSONResponse.make(ErrorBody(error: message), status: status)
        response.headers.append(contentsOf: headers)
        return response
    }

    static func notFound(_ what: String) -> APIError { APIError(.notFound, what) }
    /// A path naming an item by something that is not an id (`RequestParsing.id`): no such item can exist.
    static func notAnID(_ parameter: String) -> APIError {
        notFound("no such \(parameter == "id" ? "item" : parameter): ids are positive numbers")
    }
    static func invalid(_ message: String) -> APIError { APIError(.unprocessableContent, message) }
    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, message) }

    /// A request's body or parameter not of its documented shape: 400 naming what is wrong.
    static func undecodable(_ error: any Error, inBody: Bool) -> APIError {
        let path = { (context: DecodingError.Context) in context.codingPath.map(\.stringValue).joined(separator: ".") }
        switch error as? DecodingError {
        case .keyNotFound(let key, _)?: return badRequest(inBody ? "the body needs \"\(key.stringValue)\"" : "\(key.stringValue) is missing")
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            return badRequest(inBody ? "\"\(path(context))\" has the wrong type" : "\(path(context)) is not of its documented type")
        case .dataCorrupted(let context)? where context.debugDescription.hasPrefix("Cannot initialize"):
            // The generated decoder's words for a value outside an enum name a Swift type, not the field.
            return badRequest("\"\(path(context))\" is not one of the values the API documents for it (/api/openapi.json)")
        case .dataCorrupted(let context)? where !context.codingPath.isEmpty: return badRequest("\"\(path(context))\": \(context.debugDescription)")
        default: return badRequest(inBody ? "the body is not a JSON object of the documented shape" : "a parameter is not of its documented type")
        }
    }

    struct ErrorBody: Encodable {
        let error: String
    }
}

/// Hummingbird's own refusals under `/api/` (an unknown path, a body too large) and the generated glue's
/// (a body or parameter not of the documented shape) as JSON errors like ours, so a client parses every
/// failure the same way; a path the API has, asked with a method it does not take, is 405 with the methods
/// it does.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let routes: [APIOperation]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as ServerError {
            // The generated glue wraps every failure, ours included, in `ServerError`, which Hummingbird
            // would answer with a bare 500.
            if let own = error.underlyingError as? any HTTPResponseError { throw own }
            if let problem = GeneratedGlue.queryProblem(error.operationID, error.request) { throw APIError.badRequest(problem) }
            if let decoding = error.underlyingError as? DecodingError {
                throw APIError.undecodable(decoding, inBody: AccessMiddleware.changesState(error.request.method))
            }
            // Before the handler ran (no input), the request itself could not be read: the client's to fix.
            guard error.operationInput != nil || error.httpStatus != .internalServerError else {
                throw APIError.badRequest("the request could not be read as /api/openapi.json describes \(error.operationID)")
            }
            guard error.httpStatus != .internalServerError else {
                // What failed is the daemon's to know (the log), not the client's.
                context.logger.error("\(error.operationID): \(error.underlyingError)")
                throw APIError(.internalServerError, "the daemon failed to answer \(error.operationID); its log says why")
            }
            throw APIError(error.httpStatus, UntrustedText.printable(error.causeDescription, maxLength: 200))
        } catch let error as HTTPError where request.uri.path.hasPrefix("/api/") {
            let allowed = Self.mostSpecific(routes.filter { Self.matches($0.path, request.uri.path) }).map(\.method.rawValue)
            if error.status == .notFound, !allowed.isEmpty {
                throw APIError(.methodNotAllowed, "\(request.uri.path) takes \(allowed.joined(separator: ", ")), not \(request.method.rawValue)",
                               headers: [.allow: allowed.joined(separator: ", ")])
            }
            throw APIError(error.status, error.body ?? "\(error.status.code) \(error.status.reasonPhrase)")
        }
    }

    /// The router takes a literal segment before a parameter (`/playlists/liked` before `/playlists/{id}`),
    /// so the methods a path takes are those of the patterns with the most literal segments.
    private static func mostSpecific(_ matching: [APIOperation]) -> [APIOperation] {
        let literals = { (route: APIOperation) in route.path.split(separator: "/").filter { !$0.hasPrefix("{") }.count }
        let most = matching.map(literals).max()
        return matching.filter { literals($0) == most }
    }

    /// Whether `path` is an instance of the route's `pattern` (`/api/v1/jobs/{id}`).
    private static func matches(_ pattern: String, _ path: String) -> Bool {
        let wanted = pattern.split(separator: "/", omittingEmptySubsequences: false)
        let given = path.split(separator: "/", omittingEmptySubsequences: false)
        guard wanted.count == given.count else { return false }
        return zip(wanted, given).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
    }
}

/// JSON replies in onair's encoding (ISO 8601 dates, sorted keys).
enum JSONResponse {
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        make(encoded: ByteBuffer(bytes: OnairJSON.data(value)), status: status)
    }

    /// A reply of JSON encoded before.
    static func make(encoded body: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: body))
    }
}

extension RequestContext {
    /// A numeric id from the path: 404 when it is not one (no such resource can exist).
    func id(_ name: String = "id") throws -> Int64 {
        guard let id = RequestParsing.id(parameters.get(name)) else {
            throw APIError.notAnID(name)
        }
        return id
    }
}
