import Foundation
import HearthFormEncoding

extension URL {
    /// A URL written in the source as a provider's documented default. Only ever called with literals.
    static func providerDefault(_ literal: StaticString) -> URL {
        // Every literal parses (the configuration tests check each default); the fallback only avoids a trap.
        URL(string: "\(literal)") ?? URL(fileURLWithPath: "/unparsable-provider-default")
    }

    /// This URL with `path` appended to its path (keeping a base path such as GitHub Enterprise's `/api/v3`).
    func appendingProviderPath(_ path: String) -> URL {
        var base = absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let suffix = path.hasPrefix("/") ? path : "/" + path
        return URL(string: base + suffix) ?? appendingPathComponent(path)
    }

    /// This URL with `pairs` added to its query, every name and value percent-encoded strictly (only
    /// `A–Z a–z 0–9 - . _ ~` left as is, so `+`, `|`, `&` and `=` inside values survive).
    public func appendingQuery(_ pairs: [(String, String)]) -> URL? {
        if pairs.isEmpty { return self }
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return nil }
        let added = FormEncoding.encode(pairs)
        if let existing = components.percentEncodedQuery, !existing.isEmpty {
            components.percentEncodedQuery = existing + "&" + added
        } else {
            components.percentEncodedQuery = added
        }
        return components.url
    }

    /// Scheme, host, port and path, without query or fragment: what may appear in logs and error reasons.
    var redactedForLogs: String {
        var components = URLComponents(url: self, resolvingAgainstBaseURL: false)
        components?.query = nil
        components?.fragment = nil
        components?.user = nil
        components?.password = nil
        return components?.string ?? "<url>"
    }
}
