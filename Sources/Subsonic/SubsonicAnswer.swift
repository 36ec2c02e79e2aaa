import Foundation

/// A refusal as the Subsonic API says it: a code from the spec and a plain sentence. It travels in an
/// ordinary answer (HTTP 200, `status="failed"`), which is what every Subsonic client reads.
public struct SubsonicError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: Int, Sendable {
        case generic = 0
        case missingParameter = 10
        case clientTooOld = 20
        case serverTooOld = 30
        case wrongCredentials = 40
        case tokenAuthenticationNotSupported = 41
        case authenticationMechanismNotSupported = 42
        case conflictingAuthentication = 43
        case invalidAPIKey = 44
        case notAuthorized = 50
        case notFound = 70
    }

    public let code: Code
    public let description: String

    public init(_ code: Code, _ description: String) { (self.code, self.description) = (code, description) }

    public static func missing(_ parameter: String) -> SubsonicError {
        SubsonicError(.missingParameter, "required parameter '\(parameter)' is missing")
    }

    public static func notFound(_ what: String) -> SubsonicError { SubsonicError(.notFound, "\(what) was not found") }
}

/// The envelope every answer has, in the form the client asked for (`f=json` or XML, the default).
public enum SubsonicFormat: Sendable {
    case xml, json

    /// `f` as the request gave it. JSONP is refused: it is script a page of any site could run as ours.
    public init(parameter: String?) throws(SubsonicError) {
        switch parameter {
        case nil, "xml": self = .xml
        case "json": self = .json
        case let other?: throw SubsonicError(.generic, "the format '\(other.prefix(20))' is not offered: ask for f=json or f=xml")
        }
    }

    public var contentType: String {
        switch self {
        case .xml: "text/xml; charset=utf-8"
        case .json: "application/json; charset=utf-8"
        }
    }
}

public enum SubsonicAnswer {
    /// The protocol version this server speaks (Subsonic 1.16.1, with OpenSubsonic's extensions).
    public static let protocolVersion = "1.16.1"
    public static let serverName = "onair"
    public static let serverVersion = "0.1.0"

    /// A successful answer carrying `payload` (named as the endpoint names it, e.g. `album`), if any.
    public static func ok(_ payload: (String, SubsonicElement.Child)?, format: SubsonicFormat) -> String {
        var root = envelope(status: "ok")
        if let (name, child) = payload { root.add(name, child) }
        return render(root, format: format)
    }

    public static func failure(_ error: SubsonicError, format: SubsonicFormat) -> String {
        let root = envelope(status: "failed")
            .adding("error", .one(SubsonicElement(["code": .integer(Int64(error.code.rawValue)), "message": .text(error.description)])))
        return render(root, format: format)
    }

    private static func envelope(status: String) -> SubsonicElement {
        SubsonicElement(["status": .text(status), "version": .text(protocolVersion), "type": .text(serverName),
                         "serverVersion": .text(serverVersion), "openSubsonic": true])
    }

    private static func render(_ root: SubsonicElement, format: SubsonicFormat) -> String {
        switch format {
        case .json:
            let wrapper = SubsonicElement().adding("subsonic-response", .one(root))
            // A tree of strings, integers and flags always encodes.
            return String(decoding: (try? JSONEncoder().encode(wrapper)) ?? Data(), as: UTF8.self)
        case .xml:
            var out = #"<?xml version="1.0" encoding="UTF-8"?>"#
            root.xml(named: "subsonic-response", namespace: "http://subsonic.org/restapi", into: &out)
            return out
        }
    }
}
