import APIContract
import Hummingbird

extension OpenAPIDocument {
    /// The document as `/api/openapi.json` answers it.
    static func response() -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
