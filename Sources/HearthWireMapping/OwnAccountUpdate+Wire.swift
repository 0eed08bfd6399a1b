import HearthCore
import HearthWire

extension OwnAccountUpdate.Input {
    /// What an `accounts:update` request asks of the account (the oobCode, ID token and target fields are the
    /// controller's).
    public init(_ request: UpdateRequest, languageCode: String?) {
        self.init(
            email: request.email, password: request.password, displayName: request.displayName, photoURL: request.photoUrl,
            deletedAttributes: (request.deleteAttribute ?? []).map(\.name), deletedProviders: request.deleteProvider ?? [],
            setsAdministratorFields: request.customAttributes != nil || request.phoneNumber != nil || request.emailVerified != nil
                || request.linkProviderUserInfo != nil || request.createdAt != nil || request.lastLoginAt != nil,
            setsDisabled: request.disableUser != nil, languageCode: languageCode)
        deletedPasskeys = request.deletePasskey ?? []
    }
}
