import Foundation
import HearthAuth

/// The C++ `PhoneAuthProvider`: sending a code and making the credential of the code received.
enum PhoneArguments {
    /// The phone number in `length` bytes at `pointer`: bytes no phone number has (a NUL, which a C string would cut
    /// the number short at, or invalid UTF-8) are refused here, before anything is sent.
    static func number(_ pointer: UnsafePointer<CChar>?, _ length: Int) throws -> String {
        guard let pointer, length > 0 else { return "" }
        let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
        guard !bytes.contains(0) else { throw invalidNumber("The phone number contains a NUL byte.") }
        guard let text = String(bytes: bytes, encoding: .utf8) else { throw invalidNumber("The phone number is not valid UTF-8.") }
        return text
    }

    /// FirebaseAuth's `invalidPhoneNumber`, as HearthAuth reports it.
    static func invalidNumber(_ message: String) -> NSError {
        NSError(
            domain: AuthErrorDomain, code: AuthErrorCode.invalidPhoneNumber.rawValue,
            userInfo: [NSLocalizedDescriptionKey: message, AuthErrorUserInfoNameKey: AuthErrorCode.invalidPhoneNumber.errorCodeString])
    }
}

@_cdecl("hearth_auth_verify_phone_number")
public func hearthAuthVerifyPhoneNumber(
    _ app: UnsafeMutableRawPointer?, _ phoneNumber: CString?, _ length: Int, _ done: CompletionFunction?, _ context: UnsafeMutableRawPointer?
) {
    let completion = Completion(function: done, context: context)
    // Read now: the caller's bytes live only during this call.
    let number = Result { try PhoneArguments.number(phoneNumber, length) }
    guard let app else {
        let refusal = NSError(
            domain: AuthErrorDomain, code: AuthErrorCode.internalError.rawValue,
            userInfo: [NSLocalizedDescriptionKey: "The PhoneAuthProvider has no Auth."])
        // Through the pool as every other outcome, so that a listener is never called during VerifyPhoneNumber.
        return completion.run { throw refusal }
    }
    let auth = Handle.object(app, as: AppBox.self).auth
    completion.run {
        let result = ResultBox()
        result.strings[4] = try await PhoneAuthProvider.provider(auth: auth).verifyPhoneNumber(try number.get(), uiDelegate: nil)
        return result
    }
}

@_cdecl("hearth_credential_phone")
public func hearthCredentialPhone(_ app: UnsafeMutableRawPointer?, _ verificationID: CString?, _ verificationCode: CString?)
    -> UnsafeMutableRawPointer?
{
    guard let app else { return nil }
    let provider = PhoneAuthProvider.provider(auth: Handle.object(app, as: AppBox.self).auth)
    let credential = provider.credential(withVerificationID: string(verificationID) ?? "", verificationCode: string(verificationCode) ?? "")
    return Handle.retained(CredentialBox(credential))
}
