import Foundation

/// A fetched key set and how long it may be used.
struct KeySetSnapshot: Sendable {
    var keys: [String: SigningKey]
    var fetchedAt: Date
    var expiresAt: Date
}
