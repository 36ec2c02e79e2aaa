import Foundation
import StreamInput
import XMLInput
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One UPnP control action: a SOAP envelope POSTed to a service's control URL through the transfer
/// engine (libcurl), and the answer's output arguments.
struct SOAPAction {
    let service: String
    let name: String
    let arguments: [(name: String, value: String)]

    /// `service` as in the description, e.g. "AVTransport"; version 1 is what every renderer implements.
    init(_ service: String, _ name: String, _ arguments: [(name: String, value: String)]) {
        self.service = service
        self.name = name
        self.arguments = arguments
    }

    private var serviceType: String { "urn:schemas-upnp-org:service:\(service):1" }

    var envelope: String {
        let body = arguments.map { "<\($0.name)>\(XMLText.escaped($0.value))</\($0.name)>" }.joined()
        return """
        <?xml version="1.0" encoding="utf-8"?>
        <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">\
        <s:Body><u:\(name) xmlns:u="\(serviceType)">\(body)</u:\(name)></s:Body></s:Envelope>
        """
    }

    /// Sends the action and returns its output arguments by name. Blocks the calling thread.
    func send(to control: URL, renderer: String, engine: TransferEngine = .shared) throws(CastingError) -> [String: String] {
        let request = TransferRequest(url: control.absoluteString, headers: [
            ("Content-Type", "text/xml; charset=\"utf-8\""), ("SOAPACTION", "\"\(serviceType)#\(name)\""),
        ], connectTimeout: 3, stallTimeout: 10, body: Data(envelope.utf8), keepsErrorBody: true)
        let response: HTTPResponse
        do {
            response = try engine.fetch(request, maxBytes: 1 << 20)
        } catch let error as TransferError where error.kind == .http {
            throw CastingError("\(renderer) refused \(name)" + (Self.upnpError(inFault: error.body).map { " with \($0)" } ?? "")
                               + " (\(error.message))")
        } catch {
            throw CastingError("cannot reach \(renderer): \(error)")
        }
        do {
            return try Self.leafElements(of: response.body)
        } catch {
            throw CastingError("\(renderer) answered \(name) with unreadable XML: \(error)")
        }
    }

    /// A UPnP error comes as HTTP 500 with a SOAP fault whose detail holds its code and description:
    /// "UPnP error 714, Illegal MIME-type"; nil when the body gives no code.
    private static func upnpError(inFault body: Data?) -> String? {
        guard let body, let fault = try? leafElements(of: body), let code = fault["errorCode"].flatMap(nonEmpty) else { return nil }
        return "UPnP error \(code)" + (fault["errorDescription"].flatMap(nonEmpty).map { ", \($0)" } ?? "")
    }

    private static func leafElements(of body: Data) throws -> [String: String] {
        let reader = OutputArguments()
        try CheckedXMLParser.parse(body, into: reader, namespaces: true)
        return reader.values
    }

    private static func nonEmpty(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}

/// The leaf elements of a SOAP answer, by local name. Parser callbacks only, on the parsing thread.
private final class OutputArguments: NSObject, XMLParserDelegate {
    var values: [String: String] = [:]
    private var text = ""

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) { text = "" }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if values[name] == nil { values[name] = text }
        text = ""
    }
}
