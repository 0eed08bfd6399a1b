import Foundation
import NIOHTTP1

/// How long a fetched key set or discovery document may be used: the response's `Cache-Control: max-age`
/// (`no-cache`/`no-store` count as zero) or the configured default, clamped between the refetch floor and
/// the configured maximum.
enum CacheLifetime {
    static func seconds(for headers: HTTPHeaders, policy: ProvidersConfiguration.KeyCaching) -> TimeInterval {
        let requested = maxAge(headers) ?? policy.defaultMaxAge
        return min(max(requested, policy.minimumRefetchInterval), max(policy.maximumMaxAge, policy.minimumRefetchInterval))
    }

    /// The `max-age` directive of `Cache-Control`, if any.
    static func maxAge(_ headers: HTTPHeaders) -> TimeInterval? {
        var result: TimeInterval?
        for value in headers["Cache-Control"] {
            for directive in value.split(separator: ",") {
                let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                switch parts.first {
                case "no-store", "no-cache": result = 0
                case "max-age":
                    if parts.count == 2, let seconds = TimeInterval(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))), seconds >= 0 {
                        result = min(result ?? seconds, seconds)
                    }
                default: continue
                }
            }
        }
        return result
    }
}
