import Foundation
import HearthFormEncoding
import Hummingbird
import Synchronization

/// An offline stand-in for a captcha service's site-verify endpoint (reCAPTCHA, hCaptcha and Turnstile share its
/// shape): ``solve(siteKey:)`` plays the widget a person completes and returns a token; `POST /siteverify` with the
/// right `secret` and that `response` answers `{"success": true, …}` once, and `{"success": false, "error-codes": […]}`
/// for a wrong secret, an unknown, used or expired token.
public final class CaptchaSandbox: Sendable {
    public let siteKey: String
    public let secret: String
    /// The score reCAPTCHA v3 would give, in answers.
    public let score: Double
    let clock: @Sendable () -> Date
    let tokens = Mutex<[String: Date]>([:])
    let requests = Atomic<Int>(0)

    /// How long a token can be checked, as reCAPTCHA's two minutes.
    public static let tokenLifetime: TimeInterval = 120

    public init(score: Double = 0.9, clock: @escaping @Sendable () -> Date = { Date() }) {
        siteKey = "6L" + SandboxRandom.alphanumeric(38)
        secret = "6L" + SandboxRandom.alphanumeric(38)
        self.score = score
        self.clock = clock
    }

    /// A token for a solved challenge of `siteKey` (the sandbox's own by default).
    public func solve(siteKey: String? = nil) -> String {
        let token = "sandbox-captcha." + SandboxRandom.base64URL(bytes: 48)
        tokens.withLock { $0[token] = clock().addingTimeInterval(Self.tokenLifetime) }
        return token
    }

    /// How many site-verify requests arrived.
    public var requestCount: Int { requests.load(ordering: .relaxed) }

    /// Adds `POST /siteverify` to `group`.
    public func addRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        group.post("/siteverify") { request, _ in await self.siteVerify(request) }
    }

    func siteVerify(_ request: Request) async -> Response {
        requests.add(1, ordering: .relaxed)
        func refused(_ codes: [String]) -> Response {
            SandboxHTTP.json(.object(["success": .bool(false), "error-codes": .array(codes.map(SandboxJSON.string))]))
        }
        guard SandboxHTTP.isForm(request), let text = await SandboxHTTP.bodyText(request), let pairs = FormEncoding.pairs(text) else {
            return refused(["bad-request"])
        }
        let form = FormEncoding.firstValues(pairs)
        guard let given = form["secret"], !given.isEmpty else { return refused(["missing-input-secret"]) }
        guard given == secret else { return refused(["invalid-input-secret"]) }
        guard let token = form["response"], !token.isEmpty else { return refused(["missing-input-response"]) }
        let now = clock()
        let valid = tokens.withLock { tokens -> Bool in
            guard let expiry = tokens.removeValue(forKey: token) else { return false }
            return expiry > now
        }
        guard valid else { return refused(["invalid-input-response", "timeout-or-duplicate"]) }
        return SandboxHTTP.json(
            .object([
                "success": .bool(true), "score": .double(score), "action": .string("sendVerificationCode"),
                "hostname": .string("localhost"), "challenge_ts": .string(ISO8601DateFormatter().string(from: now)),
            ]))
    }
}
