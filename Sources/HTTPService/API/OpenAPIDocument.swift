import Foundation
import Hummingbird

/// The OpenAPI 3.1 document of the API, kept in the repository (`OpenAPI/openapi.json`, written by
/// hand; `HTTPServiceTests` holds every route against it) and served at `/api/openapi.json`.
public enum OpenAPIDocument {
    public static let data: Data = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"), let data = try? Data(contentsOf: url) else {
            preconditionFailure("openapi.json is missing from the HTTPService bundle")
        }
        return data
    }()

    static func response() -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
