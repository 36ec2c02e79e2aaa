import Hummingbird
import NIOCore

extension HTTPServer {
    /// `GET /metrics`: the text `exposition` gives at each scrape, in Prometheus' text format.
    public static func metricsRoute(_ exposition: @escaping @Sendable () -> String) -> HTTPRouteGroup {
        { router in
            router.get("/metrics") { _, _ in
                Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                         body: ResponseBody(byteBuffer: ByteBuffer(string: exposition())))
            }
        }
    }
}
