import Foundation

/// The parts of an e-mail action link, as the server writes it:
/// `…/__/auth/action?mode=…&oobCode=…&apiKey=…&continueUrl=…&lang=…`.
///
/// A link that wraps the action link in a `link` or `deep_link_id` query parameter (Firebase Dynamic Links,
/// Firebase Hosting links) is unwrapped first, as FirebaseAuth does.
public final class ActionCodeURL: Sendable {
    /// The API key of the project that issued the code (`apiKey`).
    public let apiKey: String?
    /// What the code does (`mode`).
    public let operation: ActionCodeOperation
    /// The code (`oobCode`), for ``Auth/checkActionCode(_:)``, ``Auth/applyActionCode(_:)`` and the like.
    public let code: String?
    /// Where to go after the action (`continueUrl`).
    public let continueURL: URL?
    /// The language of the mail (`lang`).
    public let languageCode: String?
    /// The tenant of the account (`tenantId`).
    public let tenantID: String?

    /// Parses a link; nil unless it has an `apiKey`, an `oobCode` and a `mode`.
    public init?(link: String) {
        let items = Self.actionQuery(of: link)
        guard let apiKey = items["apiKey"], let code = items["oobCode"], let mode = items["mode"] else { return nil }
        self.apiKey = apiKey
        self.code = code
        operation = ActionCodeOperation(mode: mode)
        continueURL = items["continueUrl"].flatMap { URL(string: $0) }
        languageCode = items["lang"]
        tenantID = items["tenantId"]
    }

    /// The query of the action link inside `link`: its own when it has an `oobCode`, else that of the link in
    /// its `deep_link_id` or `link` parameter (a few levels at most).
    static func actionQuery(of link: String) -> [String: String] {
        var items = query(of: link)
        for _ in 0..<3 where items["oobCode"] == nil {
            guard let inner = items["deep_link_id"] ?? items["link"] else { break }
            items = query(of: inner)
        }
        return items
    }

    /// The parameters of a URL's query, percent-decoded; the first of a repeated name wins. `+` stays a `+`,
    /// as in FirebaseAuth.
    static func query(of link: String) -> [String: String] {
        guard let questionMark = link.firstIndex(of: "?") else { return [:] }
        var query = link[link.index(after: questionMark)...]
        if let hash = query.firstIndex(of: "#") { query = query[..<hash] }
        var items: [String: String] = [:]
        for pair in query.split(separator: "&") {
            guard let equals = pair.firstIndex(of: "=") else { continue }
            guard let name = String(pair[..<equals]).removingPercentEncoding,
                let value = String(pair[pair.index(after: equals)...]).removingPercentEncoding,
                items[name] == nil
            else { continue }
            items[name] = value
        }
        return items
    }
}
