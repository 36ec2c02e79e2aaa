import RadioModel
/// Text placed in XML onair writes (podcast feeds, UPnP actions and their DIDL-Lite): the five
/// characters with a meaning there replaced by their entities, so "Rock & Roll <Live>" stays one title.
public enum XMLText {
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.count)
        // Control characters are not XML 1.0 (a station name with one made its feed ill-formed) and no reader's business.
        for character in UntrustedText.printable(text) {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}
