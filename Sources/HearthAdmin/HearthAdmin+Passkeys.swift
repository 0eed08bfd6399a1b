import HearthWire

/// One of a user's passkeys as an administrator sees it (`passkeyInfo` of `accounts:lookup`): no key material.
public struct PasskeyRecord: Sendable, Equatable {
    /// The WebAuthn credential id, base64url.
    public let credentialID: String
    /// The name the user gave it at enrolment.
    public let name: String?
}

extension HearthAdmin {
    /// The user's passkeys, oldest first. Throws `auth/user-not-found`. (Firebase's Admin SDKs have no passkey calls:
    /// these are Hearth's, over the admin API's `accounts:lookup` and `accounts:update`.)
    public func passkeys(uid: String) async throws -> [PasskeyRecord] {
        guard !uid.isEmpty, uid.count <= 128 else { throw HearthAdminError(.invalidUID, "A uid has 1 to 128 characters.") }
        let response = try await call(projectPath("accounts:lookup"), ["localId": ClaimValue.array([.string(uid)])], as: LookupResponse.self)
        guard let info = response.users?.first else { throw HearthAdminError(.userNotFound, "No user has this uid.") }
        return (info.passkeyInfo ?? []).map { PasskeyRecord(credentialID: $0.credentialId, name: $0.name) }
    }

    /// Removes the user's passkeys `credentialIDs` (all or none): the user can no longer sign in with them. Throws
    /// `auth/passkey-not-found` when the user has one of them not, `auth/user-not-found`.
    public func deletePasskeys(uid: String, credentialIDs: [String]) async throws {
        guard !credentialIDs.isEmpty else { throw HearthAdminError(.argumentError, "Name at least one passkey to delete.") }
        let body: [String: ClaimValue] = ["localId": .string(uid), "deletePasskey": .array(credentialIDs.map(ClaimValue.string))]
        _ = try await call(projectPath("accounts:update"), body, as: ClaimValue.self)
    }
}
