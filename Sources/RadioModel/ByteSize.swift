import Foundation

/// A size written the way people write it: "2G", "500M", "750k", "1.5T", or a bare number of bytes.
/// The units are binary (K = 1024 bytes), as `df -h` counts.
public struct ByteSize: Codable, Sendable, Equatable, Comparable, CustomStringConvertible {
    public var bytes: Int64

    public init(bytes: Int64) { self.bytes = bytes }

    public init?(_ text: String) {
        var number = text.trimmingCharacters(in: .whitespaces).uppercased()
        if number.hasSuffix("B") { number.removeLast() }
        let units: [Character: Double] = ["K": 0x1p10, "M": 0x1p20, "G": 0x1p30, "T": 0x1p40]
        var scale = 1.0
        if let unit = number.last, let factor = units[unit] {
            scale = factor
            number.removeLast()
        }
        // Below 2^62 bytes: anything larger is a typo, and stays clear of Int64's edge.
        guard let value = Double(number), value >= 0, value * scale < 0x1p62 else { return nil }
        bytes = Int64((value * scale).rounded())
    }

    /// "2.0 GiB", "500.0 MiB", "12 bytes".
    public var description: String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes), unit = -1
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit < 0 ? "\(bytes) bytes" : String(format: "%.1f %@", value, units[unit])
    }

    public static func < (a: ByteSize, b: ByteSize) -> Bool { a.bytes < b.bytes }
}
