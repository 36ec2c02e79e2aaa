@testable import Casting
import Foundation
import TestSupport
import XCTest

/// What onair reads from renderers and what it sends them, for the parts that do not need one running.
final class RendererProtocolTests: XCTestCase {
    func testAnSSDPAnswerGivesTheRendererLocationAndOtherAnswersNone() {
        let answer = "HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=100\r\nEXT:\r\nLOCATION: http://192.0.2.2:49494/description.xml\r\n"
            + "ST: urn:schemas-upnp-org:device:MediaRenderer:1\r\nUSN: uuid:1::urn:schemas-upnp-org:device:MediaRenderer:1\r\n\r\n"
        XCTAssertEqual(SSDPSearch.location(inAnswer: answer), URL(string: "http://192.0.2.2:49494/description.xml"))
        XCTAssertNil(SSDPSearch.location(inAnswer: answer.replacingOccurrences(of: "MediaRenderer:1\r\nUSN", with: "MediaServer:1\r\nUSN")),
                     "a media server is not a renderer")
        XCTAssertNil(SSDPSearch.location(inAnswer: "NOTIFY * HTTP/1.1\r\nLOCATION: http://192.0.2.9/d.xml\r\n\r\n"))
    }

    /// A Sonos player: the root device is a ZonePlayer, the renderer's services are in an embedded device,
    /// and the control URLs are relative to the description's own URL.
    func testServicesOfAnEmbeddedRendererAreFoundUnderTheRootDevicesName() throws {
        let description = """
        <?xml version="1.0" encoding="utf-8" ?>
        <root xmlns="urn:schemas-upnp-org:device-1-0"><device>
        <deviceType>urn:schemas-upnp-org:device:ZonePlayer:1</deviceType><friendlyName>192.168.1.20 - Sonos One</friendlyName>
        <manufacturer>Sonos, Inc.</manufacturer><modelName>Sonos One</modelName>
        <serviceList><service><serviceType>urn:schemas-upnp-org:service:AlarmClock:1</serviceType><controlURL>/AlarmClock/Control</controlURL></service></serviceList>
        <deviceList><device><deviceType>urn:schemas-upnp-org:device:MediaRenderer:1</deviceType><friendlyName>Kitchen - Sonos One Media Renderer</friendlyName>
        <serviceList>
        <service><serviceType>urn:schemas-upnp-org:service:RenderingControl:1</serviceType><controlURL>/MediaRenderer/RenderingControl/Control</controlURL></service>
        <service><serviceType>urn:schemas-upnp-org:service:AVTransport:1</serviceType><controlURL>/MediaRenderer/AVTransport/Control</controlURL></service>
        </serviceList></device></deviceList></device></root>
        """
        let renderer = try MediaRenderer.read(Data(description.utf8), location: URL(string: "http://192.168.1.20:1400/xml/device_description.xml")!)
        XCTAssertEqual(renderer.friendlyName, "192.168.1.20 - Sonos One")
        XCTAssertEqual(renderer.modelName, "Sonos One")
        XCTAssertTrue(renderer.isSonos)
        XCTAssertEqual(renderer.avTransport.absoluteString, "http://192.168.1.20:1400/MediaRenderer/AVTransport/Control")
        XCTAssertEqual(renderer.renderingControl?.absoluteString, "http://192.168.1.20:1400/MediaRenderer/RenderingControl/Control")
    }

    func testADeviceWithoutAVTransportIsRefusedAsNoRenderer() {
        let description = "<root xmlns=\"urn:schemas-upnp-org:device-1-0\"><device><friendlyName>NAS</friendlyName></device></root>"
        XCTAssertThrowsError(try MediaRenderer.read(Data(description.utf8), location: URL(string: "http://192.0.2.5/d.xml")!)) { error in
            XCTAssertEqual((error as? CastingError)?.description,
                           "the device at http://192.0.2.5/d.xml (NAS) has no AVTransport service: it is not a media renderer")
        }
    }

    /// The metadata is XML inside XML: escaped once in DIDL-Lite, and once more as the action's argument.
    func testMetadataIsEscapedAndALiveStationIsABroadcast() {
        let media = CastMedia(url: URL(string: "http://127.0.0.1:8080/live/rock?a=1&b=2")!, kind: .liveStation,
                              title: "Rock & <Roll> \"FM\"", station: "Rock & Roll", mimeType: "audio/mpeg",
                              artwork: URL(string: "https://example.org/logo.png?size=600&format=png"))
        let didl = media.didlLite
        XCTAssertTrue(didl.contains("<upnp:albumArtURI>https://example.org/logo.png?size=600&amp;format=png</upnp:albumArtURI>"), didl)
        XCTAssertTrue(didl.contains("<dc:title>Rock &amp; &lt;Roll&gt; &quot;FM&quot;</dc:title>"), didl)
        XCTAssertTrue(didl.contains("<upnp:class>object.item.audioItem.audioBroadcast</upnp:class>"), didl)
        XCTAssertTrue(didl.contains("<res protocolInfo=\"http-get:*:audio/mpeg:*\">http://127.0.0.1:8080/live/rock?a=1&amp;b=2</res>"), didl)
        let envelope = SOAPAction("AVTransport", "SetAVTransportURI", [("InstanceID", "0"), ("CurrentURIMetaData", didl)]).envelope
        XCTAssertTrue(envelope.contains("<CurrentURIMetaData>&lt;DIDL-Lite "), envelope)
        XCTAssertTrue(envelope.contains("Rock &amp;amp; &amp;lt;Roll&amp;gt;"), envelope)
        XCTAssertFalse(CastMedia(url: media.url, kind: .recording, title: "x").didlLite.contains("audioBroadcast"))
    }

    /// A renderer that refuses says why in a SOAP fault; the one line shows its UPnP code and description.
    func testARefusalShowsTheFaultsUPnPErrorCodeAndDescription() throws {
        let server = try FixtureHTTPServer()
        defer { server.stop() }
        let fault = """
            <?xml version="1.0"?>
            <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">\
            <s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>UPnPError</faultstring><detail>\
            <UPnPError xmlns="urn:schemas-upnp-org:control-1-0"><errorCode>714</errorCode>\
            <errorDescription>Illegal MIME-type</errorDescription></UPnPError></detail></s:Fault></s:Body></s:Envelope>
            """
        server.route("/AVTransport") { request, connection in
            let body = request.headers["SOAPACTION"]?.contains("#Stop") == true ? "<html>Internal error</html>" : fault
            try connection.sendStatus(line: "HTTP/1.1 500 Internal Server Error",
                                      headers: [("Content-Type", "text/xml; charset=\"utf-8\""), ("Content-Length", "\(body.utf8.count)")])
            try connection.send(body)
        }
        let description = """
            <root xmlns="urn:schemas-upnp-org:device-1-0"><device><friendlyName>Kitchen</friendlyName><serviceList><service>\
            <serviceType>urn:schemas-upnp-org:service:AVTransport:1</serviceType><controlURL>/AVTransport</controlURL></service>\
            </serviceList></device></root>
            """
        let control = RendererControl(try MediaRenderer.read(Data(description.utf8), location: server.url("/description.xml")))
        let media = CastMedia(url: URL(string: "http://127.0.0.1:8080/live/tone")!, kind: .liveStation, title: "Tone", mimeType: "audio/x-tone")
        XCTAssertThrowsError(try control.play(media)) { error in
            XCTAssertEqual((error as? CastingError)?.description, "Kitchen refused SetAVTransportURI with UPnP error 714, Illegal MIME-type (HTTP 500)")
        }
        XCTAssertThrowsError(try control.stop()) { error in
            XCTAssertEqual((error as? CastingError)?.description, "Kitchen refused Stop (HTTP 500)", "a 500 without a fault")
        }
    }

    func testSonosGetsRadioUnderItsOwnSchemeAndOtherRenderersThePlainURL() {
        let live = CastMedia(url: URL(string: "http://192.168.1.10:8000/fip?token=s3cret")!, kind: .liveStation, title: "FIP")
        XCTAssertEqual(live.uri(forSonos: true), "x-rincon-mp3radio://192.168.1.10:8000/fip?token=s3cret")
        XCTAssertEqual(live.uri(forSonos: false), "http://192.168.1.10:8000/fip?token=s3cret")
        let recording = CastMedia(url: URL(string: "http://192.168.1.10:8080/api/v1/recordings/3/audio")!, kind: .recording, title: "x")
        XCTAssertEqual(recording.uri(forSonos: true), "http://192.168.1.10:8080/api/v1/recordings/3/audio", "a file keeps http: it can seek")
    }

    func testRendererAddresses() {
        XCTAssertEqual(RendererAddress("upnp:Kitchen"), .named("Kitchen"))
        XCTAssertEqual(RendererAddress("UPNP: Living room "), .named("Living room"))
        XCTAssertEqual(RendererAddress("http://192.168.1.20:1400/xml/device_description.xml"),
                       .description(URL(string: "http://192.168.1.20:1400/xml/device_description.xml")!))
        XCTAssertNil(RendererAddress("upnp:"))
        XCTAssertNil(RendererAddress("Kitchen"))
        XCTAssertNil(RendererAddress("ftp://192.168.1.20/d.xml"))
    }
}

