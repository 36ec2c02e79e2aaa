import HTTPService

/// URL-encoded form bodies as the login and every page's form send them: the fields are read without a
/// crash, and a login only ever returns to a path on this server.
func fuzzHTTPForm(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let form = RequestParsing.LoginForm(parsing: body)
    _ = RequestParsing.csrfField(inForm: body)
    for next in [form.next, body] {
        guard let path = RequestParsing.loginReturn(next) else { continue }
        precondition(path.hasPrefix("/") && !path.hasPrefix("//") && !path.contains("\\"), "a login would return to \(path)")
    }
    return 0
}
