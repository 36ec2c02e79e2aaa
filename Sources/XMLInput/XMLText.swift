import RadioModel
/// Text placed in XML onair writes (podcast feeds, UPnP actions and their DIDL-Lite): the five
/// characters with a meaning there replaced by their entities, so "Rock & Roll <Live>" stays one title.
public enum XMLText {
    public static func escaped(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        // Control characters are not XML 1.0 (a station name with one made its feed ill-formed) and no reader's business.
        // By Unicode scalars, as an XML reader reads: a `<` or `"` followed by a combining mark is one Character in Swift,
        // and matching Characters let it through unescaped.
        for scalar in UntrustedText.printable(text).unicodeScalars {
            switch scalar {
            case "&": result.append(contentsOf: "&amp;".unicodeScalars)
            case "<": result.append(contentsOf: "&lt;".unicodeScalars)
            case ">": result.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": result.append(contentsOf: "&quot;".unicodeScalars)
            case "'": result.append(contentsOf: "&apos;".unicodeScalars)
            // Not characters XML 1.0 allows.
            case "\u{FFFE}", "\u{FFFF}": continue
            default: result.append(scalar)
            }
        }
        return String(result)
    }
}
