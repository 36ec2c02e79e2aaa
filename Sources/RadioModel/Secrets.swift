/// Comparing secrets a client presents (relay tokens, CSRF tokens) with the ones the box holds.
public enum Secrets {
    /// Whether `given` is `expected`, compared without an early exit, so response times do not reveal
    /// how much of a guess was right (nor, beyond the longer length's loop, how long the secret is).
    public static func equal(_ given: String, _ expected: String) -> Bool {
        let (a, b) = (Array(given.utf8), Array(expected.utf8))
        var difference: UInt8 = 0
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0 && a.count == b.count
    }
}
