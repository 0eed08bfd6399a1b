import Foundation

/// What one ``SigningKeyStore/updateSigningKeys(_:)`` call changes: at most one new key and at most
/// one retirement, applied together in the same exclusive transaction.
public struct SigningKeyChange: Sendable, Equatable {
    /// A new `retiresAt`/`expiresAt` for an existing key.
    public struct Retirement: Sendable, Equatable {
        /// The key to retire. A kid the store does not have is ignored.
        public var kid: String
        /// After this instant the key no longer signs.
        public var retiresAt: Date
        /// After this instant no token the key signed can still be valid.
        public var expiresAt: Date

        public init(kid: String, retiresAt: Date, expiresAt: Date) {
            self.kid = kid
            self.retiresAt = retiresAt
            self.expiresAt = expiresAt
        }
    }

    /// A key to insert (its kid must be new).
    public var insert: SigningKeyRecord?
    /// A key whose lifecycle instants change.
    public var retire: Retirement?

    public init(insert: SigningKeyRecord? = nil, retire: Retirement? = nil) {
        self.insert = insert
        self.retire = retire
    }

    /// Whether the change does nothing.
    public var isEmpty: Bool { insert == nil && retire == nil }
}
