import RadioModel
/// Text placed in XML onair writes (podcast feeds, UPnP actions and their DIDL-Lite): the five
/// characters with a meaning there replaced by their entities, so "Rock & Roll <Live>" stays one title.
public enum XMLText {
    public static func escaped(_ text: String) -> String {
        // Control characters are not XML 1.0 (a station name with one made its feed ill-formed) and no reader's business;
        // nor are U+FFFE and U+FFFF.
        MarkupEscaping.escaped(UntrustedText.printable(text).unicodeScalars.lazy.filter { $0 != "\u{FFFE}" && $0 != "\u{FFFF}" },
                               apostrophe: "&apos;")
    }
}
