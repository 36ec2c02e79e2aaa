import APIContract
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OpenAPIHummingbird
import OpenAPIRuntime
import RadioModel

/// What the glue generated from openapi.yaml needs to answer as the hand-written routes did (the generated
/// code's defaults differ in ways a client would notice; each type says how).
enum GeneratedGlue {
    /// onair's JSON: sorted keys, unescaped slashes, dates as `Timestamp` writes them (milliseconds, UTC).
    static let configuration = Configuration(dateTranscoder: TimestampTranscoder(), jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes])

    static let middlewares: [any ServerMiddleware] = [RequestTidying(), PathIdentifiers()]

    /// The (method, path) of every operation `registerHandlers` adds, read by registering on a recorder.
    static func operations(of handlers: some APIProtocol) -> [APIOperation] {
        let recorder = OperationRecorder()
        try? handlers.registerHandlers(on: recorder, serverURL: URL(string: "/")!, configuration: configuration)
        return recorder.operations.current
    }

    /// A domain value as the contract's type of the same JSON (a station, a job: their JSON is the documented
    /// shape, so their fields are written once, by the domain).
    static func contract<T: Decodable>(_ value: some Encodable, as type: T.Type = T.self) throws -> T {
        try OnairJSON.decoder.decode(T.self, from: OnairJSON.data(value))
    }

    /// A request's body (the contract's type) as the domain's type, which may check more than a schema can
    /// say: 400 naming what is wrong, as for any body not of its shape.
    static func domain<T: Decodable>(_ body: some Encodable, as type: T.Type = T.self) throws -> T {
        do {
            return try contract(body, as: type)
        } catch {
            throw APIError.undecodable(error, inBody: true)
        }
    }

    struct TimestampTranscoder: DateTranscoder {
        func encode(_ date: Date) throws -> String { Timestamp.format(date) }

        func decode(_ text: String) throws -> Date {
            guard let date = Timestamp.parse(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not a date: \(text)"))
            }
            return date
        }
    }

    /// What the hand-written routes took and the generated parser would refuse, made into what it takes:
    /// - `Accept` dropped: the generated serializer refuses (406) a response its request's `Accept` does not list,
    ///   and EventSource and browsers send Accepts that would turn a documented JSON error into a 406; no
    ///   operation offers a choice of representation.
    /// - a JSON body sent as `application/…+json` (which `GeneratedRoutesMiddleware` admits) labelled
    ///   `application/json`, the one type the generated parser knows.
    /// - query components without `=` (`?flag`, `a&&b=1`) left out: the generated parser fails on them (a 500),
    ///   where a query names only parameters that have values.
    struct RequestTidying: ServerMiddleware {
        func intercept(_ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
                       next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?))
            async throws -> (HTTPResponse, HTTPBody?) {
            var request = request
            request.headerFields[.accept] = nil
            if let type = mediaType(request.headerFields[.contentType]), type != "application/json", isJSON(type) {
                request.headerFields[.contentType] = "application/json"
            }
            if let path = request.path, let mark = path.firstIndex(of: "?") {
                let kept = path[path.index(after: mark)...].split(separator: "&").filter { $0.contains("=") }
                request.path = String(path[..<mark]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
            }
            return try await next(request, body, metadata)
        }
    }

    /// A Content-Type's media type, lowercased, without its parameters.
    static func mediaType(_ contentType: String?) -> String? {
        contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// `application/json`, or a JSON type of its own (`application/…+json`).
    static func isJSON(_ mediaType: String) -> Bool {
        mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
    }

    /// A parameter as the document declares it: where it is (`path`, `query`) and its JSON type.
    struct Parameter {
        let name: String
        let location: String
        let type: String?
    }

    /// The parameters of each operation, read once from the document.
    static let parameters: [String: [Parameter]] = {
        guard let document = try? JSONSerialization.jsonObject(with: OpenAPIDocument.data) as? [String: Any],
              let paths = document["paths"] as? [String: [String: Any]] else { return [:] }
        var parameters: [String: [Parameter]] = [:]
        for operation in paths.values.flatMap(\.values) {
            guard let operation = operation as? [String: Any], let id = operation["operationId"] as? String else { continue }
            parameters[id] = (operation["parameters"] as? [[String: Any]] ?? []).compactMap { parameter in
                guard let name = parameter["name"] as? String, let location = parameter["in"] as? String else { return nil }
                return Parameter(name: name, location: location, type: (parameter["schema"] as? [String: Any])?["type"] as? String)
            }
        }
        return parameters
    }()

    /// What is wrong with the query of a request the generated parser refused (it does not say which
    /// parameter): the first whose value is not of its documented type.
    static func queryProblem(_ operationID: String, _ request: HTTPRequest) -> String? {
        let given = URLComponents(string: request.path ?? "")?.queryItems ?? []
        for parameter in parameters[operationID] ?? [] where parameter.location == "query" {
            guard let value = given.first(where: { $0.name == parameter.name })?.value else { continue }
            switch parameter.type {
            case "integer" where Int64(value) == nil: return "\(parameter.name) must be a whole number, not \"\(UntrustedText.printable(value, maxLength: 40))\""
            case "number" where Double(value) == nil: return "\(parameter.name) must be a number, not \"\(UntrustedText.printable(value, maxLength: 40))\""
            case "boolean" where !["true", "false"].contains(value): return "\(parameter.name) must be true or false"
            default: continue
            }
        }
        return nil
    }

    /// An id in a path is a positive number in ASCII digits, written one way (`RequestParsing.id`): `0012`,
    /// `-3` and `abc` name nothing, so 404, where the generated parser would read `0012` as 12 and answer 400
    /// (undocumented) for `abc`. Which parameters are ids, the document says (integers in the path).
    struct PathIdentifiers: ServerMiddleware {
        func intercept(_ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
                       next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?))
            async throws -> (HTTPResponse, HTTPBody?) {
            for parameter in parameters[operationID] ?? [] where parameter.location == "path" && parameter.type == "integer"
                && RequestParsing.id(metadata.pathParameters[parameter.name]) == nil {
                throw APIError.notAnID(parameter.name)
            }
            return try await next(request, body, metadata)
        }
    }

    /// Takes note of the routes `registerHandlers` would add, and serves nothing.
    final class OperationRecorder: ServerTransport {
        let operations = Locked<[APIOperation]>([])

        func register(_ handler: @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?),
                      method: HTTPRequest.Method, path: String) throws {
            operations.withLock { $0.append(APIOperation(method: method, path: path)) }
        }
    }
}

/// One operation of the API as a client addresses it.
public struct APIOperation: Sendable, Hashable {
    public let method: HTTPRequest.Method
    public let path: String
}

/// Around the generated routes: a request body must say it is JSON (415 otherwise: a page of another site can send text/plain or a form
/// unasked, JSON only after a CORS preflight, which this server never grants; the generated glue would take a
/// body without Content-Type as JSON), at most 1 MiB of it is read (the generated glue reads any length), and
/// no cache keeps an answer (the generated glue sends only the headers the document declares).
struct GeneratedRoutesMiddleware<Context: RequestContext>: RouterMiddleware {
    static var bodyLimit: Int { 1 << 20 }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var request = request
        if AccessMiddleware.changesState(request.method) {
            let mediaType = GeneratedGlue.mediaType(request.headers[.contentType])
            let hasBody = request.headers[.contentLength].map { $0 != "0" } ?? (request.headers[.transferEncoding] != nil)
            if hasBody || mediaType != nil {
                guard let mediaType, GeneratedGlue.isJSON(mediaType) else {
                    throw APIError(.unsupportedMediaType, "the body must be JSON, sent with Content-Type: application/json"
                                   + (mediaType.map { " (not \(UntrustedText.printable($0, maxLength: 60)))" } ?? ""))
                }
            }
            do {
                _ = try await request.collectBody(upTo: Self.bodyLimit)
            } catch is NIOTooManyBytesError {
                throw APIError(.contentTooLarge, "the body is larger than the API takes (1 MiB)")
            }
        }
        var response = try await next(request, context)
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }
}
