import HTTPService
import Subsonic

/// A Subsonic request's query or form as an app sends it: its fields, its credential and its ids are read without a
/// crash; an id read back is written the same way, and an answer carrying the request's text is well-formed XML
/// (no control character survives, every markup character is escaped).
func fuzzSubsonicRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let fields = RequestParsing.fields(Substring(text))
    _ = try? SubsonicCredential(parameters: fields.compactMapValues(\.first))
    var element = SubsonicElement()
    for (name, values) in fields {
        for value in values {
            if let id = SubsonicID(value) { precondition(SubsonicID(id.text) == id, "the id \(id.text) does not read back") }
        }
        element.add("field", .one(SubsonicElement(["name": .text(name), "value": .text(values.joined())])))
    }
    let xml = SubsonicAnswer.ok(("fields", .one(element)), format: .xml)
    precondition(!xml.unicodeScalars.contains { $0.value < 0x20 }, "a control character in the XML answer")
    // By Unicode scalars, as an XML parser reads: a quote followed by a combining mark is one Character in Swift.
    let attributeValues = xml.unicodeScalars.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
        .filter { $0.offset % 2 == 1 }.map(\.element)
    precondition(attributeValues.allSatisfy { !$0.contains("<") && !$0.contains(">") }, "markup inside an attribute")
    return 0
}
