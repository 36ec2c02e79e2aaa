import Mustache
import RadioModel

/// HTML escaping by Unicode scalars, for every `{{…}}` of the pages. swift-mustache's own escaping compares Swift
/// Characters, and a `"` followed by a combining mark (U+0301) is one Character that is not `"`: it went out raw and
/// ended the attribute it stood in (`value="{{title}}"`), so a guide's or a station's title could add attributes —
/// script — to the page. A browser reads code points, so this does too.
struct HTMLEscaping: MustacheContentType {
    static let name = "ONAIR_HTML"
    /// What every template starts with, before it is parsed (`PageRenderer`): each template, partials included, sets
    /// its own content type, since swift-mustache starts a partial with its HTML type again.
    static let pragma = "{{% CONTENT_TYPE: \(name)}}"

    /// Registers the type under `name`, once, before any template naming it is parsed.
    static let registered: Void = MustacheContentTypes.register(HTMLEscaping(), named: name)

    func escapeText(_ text: String) -> String { MarkupEscaping.escaped(text.unicodeScalars, apostrophe: "&#39;") }
}
