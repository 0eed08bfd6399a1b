import Foundation

/// Where provider settings are read from: the server's configuration (file, environment, flags), read
/// by dotted key (`providers.google.clientIds`). Absent keys are `nil`; present but malformed ones throw.
public protocol ProviderSettingsSource {
    func string(_ key: String, isSecret: Bool) throws -> String?
    func stringArray(_ key: String, isSecret: Bool) throws -> [String]?
    func bool(_ key: String) throws -> Bool?
    func int(_ key: String, in range: ClosedRange<Int>) throws -> Int?
    /// The error that names `key` and what is wrong with its value.
    func problem(_ key: String, _ problem: String) -> any Error
}

extension ProviderSettingsSource {
    public func string(_ key: String) throws -> String? { try string(key, isSecret: false) }
    public func stringArray(_ key: String) throws -> [String]? { try stringArray(key, isSecret: false) }

    /// A secret, never logged.
    public func secret(_ key: String) throws -> ProviderSecret? { try string(key, isSecret: true).map { ProviderSecret($0) } }

    /// An absolute http(s) URL.
    public func url(_ key: String) throws -> URL? {
        guard let text = try string(key) else { return nil }
        guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http", url.host != nil else {
            throw problem(key, "expected an absolute http(s) URL, got \(text)")
        }
        return url
    }

    /// An absolute http(s) URL with the `{tenant}` placeholder (Microsoft's endpoints), the one placeholder
    /// of every tenant template; without `placeholderRequired`, one fixed URL will do.
    public func tenantTemplate(_ key: String, placeholderRequired: Bool = true) throws -> String? {
        guard let text = try string(key) else { return nil }
        let filled = URL(string: text.replacingOccurrences(of: "{tenant}", with: "common"))
        guard !text.contains("{tenantid}"), text.contains("{tenant}") || !placeholderRequired,
            filled?.scheme == "https" || filled?.scheme == "http", filled?.host != nil
        else {
            throw problem(key, "expected an absolute http(s) URL\(placeholderRequired ? " containing {tenant}" : ""), got \(text)")
        }
        return text
    }
}
