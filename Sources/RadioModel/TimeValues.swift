import Foundation

/// A time of day, written "HH:MM".
public struct ClockTime: Codable, Sendable, Equatable, CustomStringConvertible {
    public var hour: Int
    public var minute: Int

    public init(hour: Int, minute: Int) { self.hour = hour; self.minute = minute }

    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ (1...2).contains($0.count) }),
              let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m)
        else { return nil }
        hour = h; minute = m
    }

    public var description: String { String(format: "%02d:%02d", hour, minute) }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = ClockTime(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "expected a time of day \"HH:MM\", got \"\(text)\""))
        }
        self = value
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

/// A length of time written the way people write it: "90s", "45m", "1h30m", "2h".
/// A bare number means seconds.
public struct TimeSpan: Codable, Sendable, Equatable, Comparable, CustomStringConvertible {
    public var seconds: Double
    /// The longest span text may give (about 31 years): beyond it a typo, never a wish.
    public static let longest = 1e9

    public init(seconds: Double) { self.seconds = seconds }

    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !trimmed.isEmpty else { return nil }
        if let plain = Double(trimmed) {
            guard plain >= 0, plain <= Self.longest else { return nil }
            seconds = plain
            return
        }
        var total = 0.0
        var number = ""
        var sawUnit = false
        for ch in trimmed {
            if ch.isNumber || ch == "." {
                number.append(ch)
                continue
            }
            let unit: Double
            switch ch {
            case "h": unit = 3600
            case "m": unit = 60
            case "s": unit = 1
            default: return nil
            }
            guard let value = Double(number) else { return nil }
            total += value * unit
            number = ""
            sawUnit = true
        }
        guard number.isEmpty, sawUnit, total <= Self.longest else { return nil }
        seconds = total
    }

    public var description: String {
        guard abs(seconds) <= Self.longest, Double(Int(seconds.rounded())) == seconds else { return "\(seconds)s" }
        let whole = Int(seconds)
        let (h, m, s) = (whole / 3600, whole % 3600 / 60, whole % 60)
        var out = ""
        if h > 0 { out += "\(h)h" }
        if m > 0 { out += "\(m)m" }
        if s > 0 || out.isEmpty { out += "\(s)s" }
        return out
    }

    public static func < (a: TimeSpan, b: TimeSpan) -> Bool { a.seconds < b.seconds }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = TimeSpan(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "expected a duration like \"2h\", \"45m\" or \"1h30m\", got \"\(text)\""))
        }
        self = value
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
