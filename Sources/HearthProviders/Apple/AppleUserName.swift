import Foundation
import HearthCore

/// The name in Apple's first-sign-in `user` JSON (`{"name":{"firstName":…,"lastName":…},"email":…}`).
///
/// The JSON is not signed, so only the name is taken from it; the e-mail always comes from the ID token.
struct AppleUserName: Sendable, Equatable {
    var firstName: String?
    var lastName: String?

    /// `first last`, or whichever is present; `nil` when neither is.
    var displayName: String? {
        let joined = [firstName, lastName].compactMap { $0 }.joined(separator: " ")
        return joined.isEmpty ? nil : joined
    }

    /// Reads the JSON; `nil` when it is absent, malformed or has no name.
    init?(json: String?) {
        guard let json, let object = JSONValue.object(fromJSON: json), case .object(let name)? = object["name"] else { return nil }
        func part(_ key: String) -> String? {
            guard case .string(let value)? = name[key] else { return nil }
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : String(trimmed.prefix(256))
        }
        firstName = part("firstName")
        lastName = part("lastName")
        if firstName == nil && lastName == nil { return nil }
    }
}
