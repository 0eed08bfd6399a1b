import AsyncHTTPClient
import Foundation
import HearthCore

/// The app verification `sendVerificationCode` asks for (`sms.appVerification.*`).
public enum AppVerificationSettings: Sendable, Equatable {
    /// No check (development mode's default).
    case none
    /// Hearth's own proof of work (``ProofOfWork``) of this many bits (production's default: 20).
    case proofOfWork(difficulty: Int)
    /// A captcha checked at its service's site-verify URL (``SiteVerifyCaptcha``).
    case captcha(service: SiteVerifyCaptcha.Service, siteKey: String, secret: String, verifyURL: URL?, minimumScore: Double?)

    /// The verifier these settings describe; `nil` for ``none``.
    public func verifier(projectID: String, replayGuard: any CredentialReplayGuard, httpClient: HTTPClient, clock: WallClock)
        -> (any AppVerifying)?
    {
        switch self {
        case .none: nil
        case .proofOfWork(let difficulty): ProofOfWork(projectID: projectID, difficulty: difficulty, replayGuard: replayGuard, clock: clock)
        case .captcha(let service, let siteKey, let secret, let verifyURL, let minimumScore):
            SiteVerifyCaptcha(
                service: service, siteKey: siteKey, secret: secret, verifyURL: verifyURL, minimumScore: minimumScore, httpClient: httpClient)
        }
    }
}
