import Foundation
import HearthAuth

@_cdecl("hearth_credential_email")
public func hearthCredentialEmail(_ email: CString?, _ password: CString?) -> UnsafeMutableRawPointer {
    Handle.retained(CredentialBox(EmailAuthProvider.credential(withEmail: string(email) ?? "", password: string(password) ?? "")))
}

@_cdecl("hearth_credential_oauth")
public func hearthCredentialOAuth(
    _ providerID: CString?, _ idToken: CString?, _ rawNonce: CString?, _ accessToken: CString?, _ secret: CString?
) -> UnsafeMutableRawPointer? {
    func nonEmpty(_ pointer: CString?) -> String? { string(pointer).flatMap { $0.isEmpty ? nil : $0 } }
    guard let providerID = nonEmpty(providerID) else { return nil }
    let id = AuthProviderID.custom(providerID)
    let credential: AuthCredential
    switch (nonEmpty(idToken), nonEmpty(rawNonce), nonEmpty(accessToken), nonEmpty(secret)) {
    case (_, _, let token?, let secret?) where providerID == TwitterAuthProviderID:
        credential = TwitterAuthProvider.credential(withToken: token, secret: secret)
    case (let idToken?, let rawNonce?, let accessToken, _):
        credential = OAuthProvider.credential(providerID: id, idToken: idToken, rawNonce: rawNonce, accessToken: accessToken)
    case (let idToken?, nil, let accessToken, _):
        credential = OAuthProvider.credential(providerID: id, idToken: idToken, accessToken: accessToken)
    case (nil, _, let accessToken?, _):
        credential = OAuthProvider.credential(providerID: id, accessToken: accessToken)
    default:
        return nil
    }
    return Handle.retained(CredentialBox(credential))
}

@_cdecl("hearth_credential_retain")
public func hearthCredentialRetain(_ credential: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
    _ = Unmanaged<CredentialBox>.fromOpaque(credential).retain()
    return credential
}

@_cdecl("hearth_credential_release")
public func hearthCredentialRelease(_ credential: UnsafeMutableRawPointer?) {
    Handle.release(credential)
}

@_cdecl("hearth_credential_provider")
public func hearthCredentialProvider(_ credential: UnsafeMutableRawPointer) -> UnsafeMutablePointer<CChar>? {
    cString(Handle.object(credential, as: CredentialBox.self).credential.provider)
}

// MARK: Results

@_cdecl("hearth_result_user")
public func hearthResultUser(_ result: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    Handle.object(result, as: ResultBox.self).user.map { Handle.retained(UserBox($0)) }
}

@_cdecl("hearth_result_string")
public func hearthResultString(_ result: UnsafeMutableRawPointer, _ field: Int32) -> UnsafeMutablePointer<CChar>? {
    let box = Handle.object(result, as: ResultBox.self)
    switch field {
    case 0: return cString(box.additionalUserInfo?.providerID)
    case 1: return cString(box.additionalUserInfo?.username)
    default: return cString(box.strings[field])
    }
}

@_cdecl("hearth_result_is_new_user")
public func hearthResultIsNewUser(_ result: UnsafeMutableRawPointer) -> Int32 {
    Handle.object(result, as: ResultBox.self).additionalUserInfo?.isNewUser == true ? 1 : 0
}

@_cdecl("hearth_result_credential")
public func hearthResultCredential(_ result: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    Handle.object(result, as: ResultBox.self).credential.map { Handle.retained(CredentialBox($0)) }
}

@_cdecl("hearth_result_updated_credential")
public func hearthResultUpdatedCredential(_ result: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    Handle.object(result, as: ResultBox.self).updatedCredential.map { Handle.retained(CredentialBox($0)) }
}

@_cdecl("hearth_result_list_count")
public func hearthResultListCount(_ result: UnsafeMutableRawPointer) -> Int {
    Handle.object(result, as: ResultBox.self).list.count
}

@_cdecl("hearth_result_list_item")
public func hearthResultListItem(_ result: UnsafeMutableRawPointer, _ index: Int) -> UnsafeMutablePointer<CChar>? {
    let list = Handle.object(result, as: ResultBox.self).list
    return list.indices.contains(index) ? cString(list[index]) : nil
}

@_cdecl("hearth_result_borrow_profile")
public func hearthResultBorrowProfile(_ result: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    Handle.object(result, as: ResultBox.self).profile.map { Handle.borrowed($0) }
}
