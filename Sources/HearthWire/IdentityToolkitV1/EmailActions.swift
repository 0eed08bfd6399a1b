/// `accounts:sendOobCode` (legacy `getOobConfirmationCode`): mails an action link, or with `returnOobLink`
/// (administrators only) returns it.
public struct SendOobCodeRequest: Codable, Sendable, Equatable {
    public var requestType: WireEnum<OobRequestTypeNames>?
    public var email: String?
    public var newEmail: String?
    public var idToken: String?
    public var returnOobLink: Bool?
    public var continueUrl: String?
    public var canHandleCodeInApp: Bool?
    public var androidPackageName: String?
    public var androidInstallApp: Bool?
    public var androidMinimumVersion: String?
    public var iOSBundleId: String?
    public var iOSAppStoreId: String?
    public var dynamicLinkDomain: String?
    public var linkDomain: String?
    public var clientType: String?
    public var userIp: String?
    public var captchaResp: String?
    public var recaptchaVersion: String?
    public var tenantId: String?
    public var targetProjectId: String?

    public init(requestType: WireEnum<OobRequestTypeNames>?) { self.requestType = requestType }
}

public struct SendOobCodeResponse: Codable, Sendable, Equatable {
    public var kind = "identitytoolkit#GetOobConfirmationCodeResponse"
    public var email: String?
    public var oobCode: String?
    public var oobLink: String?

    public init(email: String?) { self.email = email }
}

/// `accounts:resetPassword`: with `oobCode` alone it says what the code is for; with `newPassword` it sets
/// the password.
public struct ResetPasswordRequest: Codable, Sendable, Equatable {
    public var oobCode: String?
    public var newPassword: String?
    public var email: String?
    public var oldPassword: String?
    public var tenantId: String?

    public init(oobCode: String?, newPassword: String? = nil) {
        self.oobCode = oobCode
        self.newPassword = newPassword
    }
}

public struct ResetPasswordResponse: Codable, Sendable, Equatable {
    public var kind = "identitytoolkit#ResetPasswordResponse"
    public var requestType: String?
    public var email: String?
    public var newEmail: String?

    public init(requestType: String?, email: String?) {
        self.requestType = requestType
        self.email = email
    }
}

/// `accounts:signInWithEmailLink` (legacy `emailLinkSignin`): signs in, signs up, or with `idToken` links.
public struct SignInWithEmailLinkRequest: Codable, Sendable, Equatable {
    public var email: String?
    public var oobCode: String?
    public var idToken: String?
    public var tenantId: String?
    public var returnSecureToken: Bool?

    public init(email: String?, oobCode: String?, idToken: String? = nil) {
        self.email = email
        self.oobCode = oobCode
        self.idToken = idToken
    }
}

public struct SignInWithEmailLinkResponse: Codable, Sendable, Equatable {
    public var kind = "identitytoolkit#EmailLinkSigninResponse"
    public var email: String?
    public var localId: String
    public var isNewUser: Bool
    public var idToken: String
    public var refreshToken: String
    public var expiresIn: String

    public init(email: String?, localId: String, isNewUser: Bool, idToken: String, refreshToken: String, expiresIn: String) {
        self.email = email
        self.localId = localId
        self.isNewUser = isNewUser
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }
}
