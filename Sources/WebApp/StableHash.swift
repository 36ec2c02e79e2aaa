/// A hash that is the same in every run and on every box (Swift's `hashValue` changes from run to run): FNV-1a over
/// the text's UTF-8. For names of things, never for secrets.
enum StableHash {
    static func of(_ text: String) -> UInt64 {
        var hash: UInt64 = 14_695_981_039_346_656_037
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
        return hash
    }
}
