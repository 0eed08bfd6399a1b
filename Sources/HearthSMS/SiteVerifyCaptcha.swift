import AsyncHTTPClient
import Foundation
import HearthCore
import HearthFormEncoding

/// A captcha's server-side check, as reCAPTCHA, hCaptcha and Cloudflare Turnstile all have it: `POST` of a form with
/// `secret`, `response` (the client's token) and `remoteip` to the service's site-verify URL, which answers JSON with
/// `success` (and for reCAPTCHA v3 a `score`). A token the service refuses (wrong, used twice, expired) is
/// `CAPTCHA_CHECK_FAILED`; no token is `MISSING_CLIENT_IDENTIFIER`; a service that does not answer is a 503, never a
/// code sent unchecked.
public struct SiteVerifyCaptcha: AppVerifying {
    public enum Service: String, Sendable, CaseIterable {
        case recaptcha, hcaptcha, turnstile

        /// The service's site-verify endpoint.
        public var defaultURL: URL {
            switch self {
            case .recaptcha: URL(string: "https://www.google.com/recaptcha/api/siteverify")!
            case .hcaptcha: URL(string: "https://api.hcaptcha.com/siteverify")!
            case .turnstile: URL(string: "https://challenges.cloudflare.com/turnstile/v0/siteverify")!
            }
        }
    }

    public let service: Service
    public let siteKey: String
    let secret: String
    public let verifyURL: URL
    /// reCAPTCHA v3's lowest score accepted (0.0 to 1.0); `nil`: the score is not looked at.
    public let minimumScore: Double?
    let http: GatewayHTTP

    public init(
        service: Service, siteKey: String, secret: String, verifyURL: URL? = nil, minimumScore: Double? = nil, httpClient: HTTPClient,
        timeout: Double = 10
    ) {
        self.service = service
        self.siteKey = siteKey
        self.secret = secret
        self.verifyURL = verifyURL ?? service.defaultURL
        self.minimumScore = minimumScore
        self.http = GatewayHTTP(client: httpClient, timeout: timeout)
    }

    public var parameters: AppVerificationParameters { AppVerificationParameters(siteKey: siteKey) }

    public func verify(_ proof: AppProof, phoneNumber: String, clientAddress: String) async throws {
        guard let token = proof.captchaToken else { throw HearthError(.missingClientIdentifier) }
        // Tokens of all three are a few hundred to a few thousand characters; more is not a token.
        guard token.utf8.count <= 8_192 else { throw HearthError(.captchaCheckFailed, reason: "captcha token too long") }
        var form = [("secret", secret), ("response", token)]
        if !clientAddress.isEmpty { form.append(("remoteip", clientAddress)) }
        if service == .hcaptcha { form.append(("sitekey", siteKey)) }
        let answer: GatewayHTTP.Answer
        do {
            answer = try await http.post(
                verifyURL, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Data(FormEncoding.encode(form).utf8),
                gateway: service.rawValue)
        } catch let failure as SMSDeliveryFailure {
            throw HearthError(.storageUnavailable, reason: "captcha check unavailable: \(failure.message)")
        }
        struct Reply: Decodable {
            let success: Bool?
            let score: Double?
            let errorCodes: [String]?
            enum CodingKeys: String, CodingKey {
                case success, score
                case errorCodes = "error-codes"
            }
        }
        guard answer.isSuccess, let reply = try? JSONDecoder().decode(Reply.self, from: answer.body), let success = reply.success else {
            throw HearthError(.storageUnavailable, reason: "captcha check unavailable: \(service.rawValue) answered HTTP \(answer.status)")
        }
        guard success else {
            throw HearthError(
                .captchaCheckFailed, reason: "\(service.rawValue) refused the token: \((reply.errorCodes ?? []).joined(separator: ",").prefix(100))")
        }
        if let minimumScore, (reply.score ?? 0) < minimumScore {
            throw HearthError(.captchaCheckFailed, reason: "\(service.rawValue) score \(reply.score ?? 0) below \(minimumScore)")
        }
    }
}
