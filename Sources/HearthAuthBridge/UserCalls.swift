import Foundation
import HearthAuth

@_cdecl("hearth_user_retain")
public func hearthUserRetain(_ user: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
    _ = Unmanaged<UserBox>.fromOpaque(user).retain()
    return user
}

@_cdecl("hearth_user_release")
public func hearthUserRelease(_ user: UnsafeMutableRawPointer?) {
    Handle.release(user)
}

@_cdecl("hearth_user_same")
public func hearthUserSame(_ a: UnsafeMutableRawPointer?, _ b: UnsafeMutableRawPointer?) -> Int32 {
    guard let a, let b else { return a == nil && b == nil ? 1 : 0 }
    return Handle.object(a, as: UserBox.self).user === Handle.object(b, as: UserBox.self).user ? 1 : 0
}

/// Field `field` of a user or of one of its provider identities.
func userInfoString(_ info: any UserInfo, _ field: Int32) -> String? {
    switch field {
    case 0: return info.uid
    case 1: return info.email
    case 2: return info.displayName
    case 3: return info.photoURL?.absoluteString
    case 4: return info.providerID
    case 5: return info.phoneNumber
    default: return nil
    }
}

@_cdecl("hearth_user_string")
public func hearthUserString(_ user: UnsafeMutableRawPointer, _ field: Int32) -> UnsafeMutablePointer<CChar>? {
    let user = Handle.object(user, as: UserBox.self).user
    return cString(field == 6 ? user.tenantID : userInfoString(user, field))
}

@_cdecl("hearth_user_flag")
public func hearthUserFlag(_ user: UnsafeMutableRawPointer, _ flag: Int32) -> Int32 {
    let user = Handle.object(user, as: UserBox.self).user
    return (flag == 0 ? user.isAnonymous : user.isEmailVerified) ? 1 : 0
}

@_cdecl("hearth_user_timestamp")
public func hearthUserTimestamp(_ user: UnsafeMutableRawPointer, _ which: Int32) -> UInt64 {
    let metadata = Handle.object(user, as: UserBox.self).user.metadata
    guard let date = which == 0 ? metadata.lastSignInDate : metadata.creationDate else { return 0 }
    return UInt64(max(0, (date.timeIntervalSince1970 * 1000).rounded()))
}

@_cdecl("hearth_user_provider_count")
public func hearthUserProviderCount(_ user: UnsafeMutableRawPointer) -> Int {
    Handle.object(user, as: UserBox.self).user.providerData.count
}

@_cdecl("hearth_user_provider_string")
public func hearthUserProviderString(_ user: UnsafeMutableRawPointer, _ index: Int, _ field: Int32) -> UnsafeMutablePointer<CChar>? {
    let providers = Handle.object(user, as: UserBox.self).user.providerData
    return providers.indices.contains(index) ? cString(userInfoString(providers[index], field)) : nil
}

/// Runs a call on a user, refusing a NULL credential where one is needed.
private func userCall(
    _ user: UnsafeMutableRawPointer, _ done: CompletionFunction?, _ context: UnsafeMutableRawPointer?,
    _ operation: @escaping @Sendable (User) async throws -> ResultBox
) {
    let user = Handle.object(user, as: UserBox.self).user
    Completion(function: done, context: context).run { try await operation(user) }
}

private func credentialCall(
    _ user: UnsafeMutableRawPointer, _ credential: UnsafeMutableRawPointer?, _ done: CompletionFunction?, _ context: UnsafeMutableRawPointer?,
    _ operation: @escaping @Sendable (User, AuthCredential) async throws -> AuthDataResult
) {
    guard let credential = credential.map({ Handle.object($0, as: CredentialBox.self).credential }) else {
        return Completion(function: done, context: context).refuse(CppAuthError.invalidCredential, "The credential is not valid.")
    }
    userCall(user, done, context) { ResultBox(try await operation($0, credential)) }
}

@_cdecl("hearth_user_get_token")
public func hearthUserGetToken(_ user: UnsafeMutableRawPointer, _ force: Int32, _ done: CompletionFunction?, _ context: UnsafeMutableRawPointer?) {
    userCall(user, done, context) { user in
        let result = ResultBox()
        result.strings[2] = try await user.getIDToken(forcingRefresh: force != 0)
        return result
    }
}

@_cdecl("hearth_user_link")
public func hearthUserLink(
    _ user: UnsafeMutableRawPointer, _ credential: UnsafeMutableRawPointer?, _ done: CompletionFunction?, _ context: UnsafeMutableRawPointer?
) {
    credentialCall(user, credential, done, context) { try await $0.link(with: $1) }
}

@_cdecl("hearth_user_reauthenticate")
public func hearthUserReauthenticate(
    _ user: UnsafeMutableRawPointer, _ credential: UnsafeMutableRawPointer?, _ done: CompletionFunction?, _ context: UnsafeMutableRawPointer?
) {
    credentialCall(user, credential, done, context) { try await $0.reauthenticate(with: $1) }
}

@_cdecl("hearth_user_with_provider")
public func hearthUserWithProvider(
    _ app: UnsafeMutableRawPointer, _ user: UnsafeMutableRawPointer, _ what: Int32, _ providerID: CString?, _ scopes: CStrings?, _ scopeCount: Int,
    _ names: CStrings?,
    _ values: CStrings?, _ parameterCount: Int, _ done: CompletionFunction?, _ context: UnsafeMutableRawPointer?
) {
    let request = ProviderRequest(providerID, scopes, scopeCount, names, values, parameterCount)
    guard let provider = request.provider(Handle.object(app, as: AppBox.self).auth) else {
        return Completion(function: done, context: context).refuse(CppAuthError.invalidProviderID, "The provider id is empty.")
    }
    userCall(user, done, context) { user in
        let delegate = try Browser.delegate()
        switch what {
        case 1: return ResultBox(try await user.link(with: provider, uiDelegate: delegate))
        default: return ResultBox(try await user.reauthenticate(with: provider, uiDelegate: delegate))
        }
    }
}

@_cdecl("hearth_user_unlink")
public func hearthUserUnlink(
    _ user: UnsafeMutableRawPointer, _ providerID: CString?, _ done: CompletionFunction?, _ context: UnsafeMutableRawPointer?
) {
    let providerID = string(providerID) ?? ""
    userCall(user, done, context) { ResultBox(user: try await $0.unlink(fromProvider: providerID)) }
}

@_cdecl("hearth_user_update_phone_number")
public func hearthUserUpdatePhoneNumber(
    _ user: UnsafeMutableRawPointer, _ credential: UnsafeMutableRawPointer?, _ done: CompletionFunction?, _ context: UnsafeMutableRawPointer?
) {
    guard let phone = credential.map({ Handle.object($0, as: CredentialBox.self).credential }) as? PhoneAuthCredential else {
        return Completion(function: done, context: context).refuse(CppAuthError.invalidCredential, "The credential is not a phone credential.")
    }
    userCall(user, done, context) { user in
        try await user.updatePhoneNumber(phone)
        return ResultBox(user: user)
    }
}

@_cdecl("hearth_user_reload")
public func hearthUserReload(_ user: UnsafeMutableRawPointer, _ done: CompletionFunction?, _ context: UnsafeMutableRawPointer?) {
    userCall(user, done, context) { user in
        try await user.reload()
        return ResultBox(user: user)
    }
}

@_cdecl("hearth_user_delete")
public func hearthUserDelete(_ user: UnsafeMutableRawPointer, _ done: CompletionFunction?, _ context: UnsafeMutableRawPointer?) {
    userCall(user, done, context) { user in
        try await user.delete()
        return ResultBox()
    }
}

@_cdecl("hearth_user_update_password")
public func hearthUserUpdatePassword(
    _ user: UnsafeMutableRawPointer, _ password: CString?, _ done: CompletionFunction?, _ context: UnsafeMutableRawPointer?
) {
    let password = string(password) ?? ""
    userCall(user, done, context) { user in
        try await user.updatePassword(to: password)
        return ResultBox(user: user)
    }
}

@_cdecl("hearth_user_update_profile")
public func hearthUserUpdateProfile(
    _ user: UnsafeMutableRawPointer, _ displayName: CString?, _ photoURL: CString?, _ done: CompletionFunction?,
    _ context: UnsafeMutableRawPointer?
) {
    let name = string(displayName)
    let photo = string(photoURL)
    userCall(user, done, context) { user in
        let change = user.createProfileChangeRequest()
        if let name { change.displayName = name }
        if let photo { change.photoURL = URL(string: photo) }
        try await change.commitChanges()
        return ResultBox(user: user)
    }
}

@_cdecl("hearth_user_send_email_verification")
public func hearthUserSendEmailVerification(
    _ user: UnsafeMutableRawPointer, _ newEmail: CString?, _ done: CompletionFunction?, _ context: UnsafeMutableRawPointer?
) {
    let newEmail = string(newEmail)
    userCall(user, done, context) { user in
        if let newEmail {
            try await user.sendEmailVerification(beforeUpdatingEmail: newEmail)
        } else {
            try await user.sendEmailVerification()
        }
        return ResultBox()
    }
}
