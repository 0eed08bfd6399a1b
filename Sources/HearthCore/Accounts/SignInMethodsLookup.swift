import Foundation

/// `accounts:createAuthUri` for an e-mail (`fetchSignInMethodsForEmail`): whether the address has an account and how
/// it signs in, unless e-mail enumeration protection is on, which answers nothing for every address alike.
public struct SignInMethodsLookup: Sendable {
    public let settings: any ProjectSettingsReading
    public let store: any AccountStore
    public let abuse: AbuseCounter

    public init(settings: any ProjectSettingsReading, store: any AccountStore, abuse: AbuseCounter) {
        self.settings = settings
        self.store = store
        self.abuse = abuse
    }

    /// The account's sign-in methods: `nil` under enumeration protection; otherwise whether the address is
    /// registered and its methods (the account whose own e-mail it is first, else one that has it from a provider).
    /// When several accounts may share an address (one account per e-mail off), only the account whose own e-mail it
    /// is counts, with its e-mail methods alone (`password`, `emailLink`), never its providers, as Firebase answers.
    /// Throws `MISSING_IDENTIFIER`, `MISSING_CONTINUE_URI`, `INVALID_CONTINUE_URI`, `INVALID_IDENTIFIER`, `TOO_MANY_ATTEMPTS_TRY_LATER`.
    public func callAsFunction(identifier: String?, continueURI: String?, from origin: ClientOrigin) async throws -> (
        registered: Bool, methods: [String]
    )? {
        guard let identifier else { throw HearthError(.missingIdentifier) }
        guard let continueURI else { throw HearthError(.missingContinueURI) }
        guard let url = URL(string: continueURI), url.scheme != nil, url.host != nil else { throw HearthError(.invalidContinueURI) }
        guard let email = EmailAddress.normalize(identifier) else { throw HearthError(.invalidIdentifier) }
        try await abuse.count(\.createAuthUri, address: origin.counterAddress)
        let settings = try await settings.projectSettings()
        if settings.emailEnumerationProtection { return nil }
        let users = try await store.users(anyEmail: email)
        guard settings.oneAccountPerEmail else {
            guard let owner = users.first(where: { $0.email == email }) else { return (false, []) }
            return (true, owner.signInMethods.filter { $0 == "password" || $0 == "emailLink" })
        }
        let owner = users.first { $0.email == email } ?? users.first
        return (owner != nil, owner?.signInMethods ?? [])
    }
}
