import Foundation
import HearthCore
import HearthWire

extension MFAEnrollment {
    /// `factor` as lookups show it (`masked`: as a sign-in's `mfaInfo` shows it, the number hidden but its end).
    public init(_ factor: SecondFactorEnrollment, masked: Bool = false) {
        self.init(
            mfaEnrollmentId: factor.id, displayName: factor.displayName,
            enrolledAt: factor.enrolledAt.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        switch factor.factor {
        case .phone(let number): phoneInfo = masked ? SecondFactorEnrollment.masked(number) : number
        case .totp: totpInfo = .init()
        }
    }
}

extension SecondFactorRequired {
    /// The answer of a first factor that needs a second: HTTP 200, no tokens.
    public var wire: MFARequiredResponse {
        MFARequiredResponse(
            localId: user.uid, email: user.email, mfaPendingCredential: pendingCredential,
            mfaInfo: user.secondFactors.map { MFAEnrollment($0, masked: true) })
    }
}

extension MFAPhoneRequestInfo {
    /// The app verification proof the request carries.
    public var proof: AppProof {
        AppProof(
            recaptchaToken: recaptchaToken, captchaResponse: captchaResponse, playIntegrityToken: playIntegrityToken,
            safetyNetToken: safetyNetToken, iosReceipt: iosReceipt, iosSecret: iosSecret)
    }
}
