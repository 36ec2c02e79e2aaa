/// The five characters with a meaning in HTML and XML replaced by their references, by Unicode scalars as a browser
/// or an XML reader reads: a `<` or `"` followed by a combining mark is one Swift Character that is not `<` or `"`,
/// and escaping by Characters let it through raw (an attribute's end, a tag's start). The XML writer and the web
/// pages' escaping both stand on this; they differ only in how an apostrophe is written.
public enum MarkupEscaping {
    public static func escaped(_ scalars: some Sequence<Unicode.Scalar>, apostrophe: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in scalars {
            switch scalar {
            case "&": result.append(contentsOf: "&amp;".unicodeScalars)
            case "<": result.append(contentsOf: "&lt;".unicodeScalars)
            case ">": result.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": result.append(contentsOf: "&quot;".unicodeScalars)
            case "'": result.append(contentsOf: apostrophe.unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }
}
