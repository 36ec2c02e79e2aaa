import Crypto
import Foundation
import RadioModel

/// How a request says who it is, as the Subsonic API and OpenSubsonic's `apiKeyAuthentication` allow:
/// the password itself (`p=`, plain or `enc:` and its UTF-8 in hex), the MD5 of a password and a salt
/// (`t=`, `s=`), or an API key (`apiKey=`, with no user name). The one user is `onair`.
public enum SubsonicCredential: Sendable, Equatable {
    case password(String)
    case token(String, salt: String)
    case apiKey(String)

    public static let userName = "onair"

    /// The credential in `parameters`; what is missing, mixed or malformed is the spec's error for it.
    /// A user name other than `onair` is a wrong credential like any other (checked by the caller, so it
    /// counts as a failed attempt).
    public init(parameters: [String: String]) throws(SubsonicError) {
        let user = parameters["u"], password = parameters["p"], token = parameters["t"], salt = parameters["s"]
        if let key = parameters["apiKey"] {
            guard user == nil, password == nil, token == nil else {
                throw SubsonicError(.conflictingAuthentication, "an API key is given with a user name or a password: send only one of them")
            }
            self = .apiKey(key)
            return
        }
        guard user != nil else { throw SubsonicError.missing("u") }
        switch (password, token, salt) {
        case (let password?, nil, _):
            guard password.hasPrefix("enc:") else { self = .password(password); return }
            guard let bytes = Secrets.bytes(hex: password.dropFirst(4)), let decoded = String(validating: bytes, as: UTF8.self) else {
                throw SubsonicError(.wrongCredentials, "the enc: password is not the hexadecimal of UTF-8 text")
            }
            self = .password(decoded)
        case (nil, let token?, let salt?):
            self = .token(token.lowercased(), salt: salt)
        case (nil, _?, nil):
            throw SubsonicError.missing("s")
        case (nil, nil, _):
            throw SubsonicError.missing("p")
        case (_?, _?, _):
            throw SubsonicError(.conflictingAuthentication, "both a password and a token are given: send only one of them")
        }
    }

    /// Whether `token` is the MD5 of `password` followed by `salt`, compared in constant time.
    public static func token(_ token: String, salt: String, matches password: String) -> Bool {
        Secrets.equal(token, Insecure.MD5.hash(data: Data((password + salt).utf8)).map { String(format: "%02x", $0) }.joined())
    }
}
