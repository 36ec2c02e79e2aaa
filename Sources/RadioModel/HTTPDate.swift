import Foundation

/// RFC 9110's IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`): HTTP's Date, Last-Modified and
/// If-Modified-Since, and RSS's pubDate (an RFC 822 date in the same form).
public enum HTTPDate {
    public static func string(_ date: Date) -> String { writer.string(from: date) }

    /// A date in that form; also with a zone name other than GMT, as some servers write it.
    public static func date(_ text: String) -> Date? { reader.date(from: text) }

    private static let writer = formatter("EEE, dd MMM yyyy HH:mm:ss 'GMT'")
    private static let reader = formatter("EEE, dd MMM yyyy HH:mm:ss zzz")

    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        return formatter
    }
}
