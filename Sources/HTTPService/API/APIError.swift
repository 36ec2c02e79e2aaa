import Foundation
import Hummingbird
import RadioModel

/// An API failure: its status and one sentence a person can act on, sent as `{"error": "…"}`.
public struct APIError: HTTPResponseError, CustomStringConvertible {
    public let status: HTTPResponse.Status
    public let message: String

    public init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { message }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONResponse.make(ErrorBody(error: message), status: status)
    }

    static func notFound(_ what: String) -> APIError { APIError(.notFound, what) }
    static func invalid(_ message: String) -> APIError { APIError(.unprocessableContent, message) }
    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, message) }

    struct ErrorBody: Encodable {
        let error: String
    }
}

/// Hummingbird's own refusals under `/api/` (an unknown path, a wrong method, a body too large) as
/// JSON errors like ours, so a client parses every failure the same way.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as HTTPError where request.uri.path.hasPrefix("/api/") {
            throw APIError(error.status, error.body ?? "\(error.status.code) \(error.status.reasonPhrase)")
        }
    }
}

/// JSON replies in onair's encoding (ISO 8601 dates, sorted keys).
enum JSONResponse {
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: OnairJSON.data(value))))
    }
}

extension Request {
    /// The JSON body as `T`: 400 when it is not JSON of that shape, naming what is wrong.
    func decodeJSON<T: Decodable>(_ type: T.Type) async throws -> T {
        let body = try await body.collect(upTo: 1 << 20)
        do {
            return try OnairJSON.decoder.decode(T.self, from: Data(buffer: body))
        } catch let DecodingError.keyNotFound(key, _) {
            throw APIError.badRequest("the body needs \"\(key.stringValue)\"")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw APIError.badRequest("\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw APIError.badRequest("\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\": \(context.debugDescription)")
        } catch {
            throw APIError.badRequest("the body is not a JSON object of the documented shape")
        }
    }
}

extension RequestContext {
    /// A numeric id from the path: 404 when it is not one (no such resource can exist).
    func id(_ name: String = "id") throws -> Int64 {
        guard let text = parameters.get(name), let id = Int64(text), id > 0 else {
            throw APIError.notFound("no such \(name == "id" ? "item" : name): ids are positive numbers")
        }
        return id
    }
}
