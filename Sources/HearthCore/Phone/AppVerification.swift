import Crypto
import Foundation

/// What a client shows, with `accounts:sendVerificationCode`, to prove it is a real app and not a script asking for
/// SMS: Firebase's fields, as they arrive.
public struct AppProof: Sendable, Equatable {
    public var recaptchaToken: String?
    public var captchaResponse: String?
    public var playIntegrityToken: String?
    public var safetyNetToken: String?
    public var iosReceipt: String?
    public var iosSecret: String?

    public init(
        recaptchaToken: String? = nil, captchaResponse: String? = nil, playIntegrityToken: String? = nil, safetyNetToken: String? = nil,
        iosReceipt: String? = nil, iosSecret: String? = nil
    ) {
        self.recaptchaToken = recaptchaToken
        self.captchaResponse = captchaResponse
        self.playIntegrityToken = playIntegrityToken
        self.safetyNetToken = safetyNetToken
        self.iosReceipt = iosReceipt
        self.iosSecret = iosSecret
    }

    /// The captcha's token: `captchaResponse` (Identity Platform's newer field) or `recaptchaToken`, whichever is set.
    public var captchaToken: String? {
        [captchaResponse, recaptchaToken].compactMap { $0 }.first { !$0.isEmpty }
    }
}

/// What `GET /v1/recaptchaParams` tells a client about the check: the captcha's site key, or the proof of work's
/// difficulty.
public struct AppVerificationParameters: Sendable, Equatable {
    public var siteKey: String?
    public var proofOfWorkDifficulty: Int?

    public init(siteKey: String? = nil, proofOfWorkDifficulty: Int? = nil) {
        self.siteKey = siteKey
        self.proofOfWorkDifficulty = proofOfWorkDifficulty
    }
}

/// Checks the app's proof before a code is sent to a number that is not a test number. Throws
/// `MISSING_CLIENT_IDENTIFIER` when the proof it needs is absent, `CAPTCHA_CHECK_FAILED` when it is refused (wrong,
/// used, stale) and `INVALID_APP_CREDENTIAL` for an app credential it cannot accept.
public protocol AppVerifying: Sendable {
    var parameters: AppVerificationParameters { get }
    func verify(_ proof: AppProof, phoneNumber: String, clientAddress: String) async throws
}

/// Hearth's own proof of work, for operators who want no third party: before asking for a code, the client finds a
/// `nonce` such that `SHA-256("hearth-pow.v1.<project>.<phone number>.<t>.<nonce>")` starts with ``difficulty`` zero
/// bits, `t` being the current Unix time in seconds, and sends `recaptchaToken: "hearth-pow.v1.<t>.<nonce>"`.
///
/// The work is bound to the number and the minute it is for, so it cannot be done once and reused; a proof is taken
/// once (the replay guard remembers it while it could still pass) and only within ``window`` of the server's time.
/// Each bit of difficulty doubles the client's work: 20 bits is about a million hashes, a fraction of a second on a
/// phone, and what makes asking for thousands of codes expensive.
public struct ProofOfWork: AppVerifying {
    public let projectID: String
    public let difficulty: Int
    public let replayGuard: any CredentialReplayGuard
    public let clock: WallClock
    /// How far the proof's time may be from the server's, either way.
    public static let window: TimeInterval = 120
    public static let prefix = "hearth-pow.v1."

    public init(projectID: String, difficulty: Int, replayGuard: any CredentialReplayGuard, clock: WallClock) {
        self.projectID = projectID
        self.difficulty = difficulty
        self.replayGuard = replayGuard
        self.clock = clock
    }

    public var parameters: AppVerificationParameters { AppVerificationParameters(proofOfWorkDifficulty: difficulty) }

    public func verify(_ proof: AppProof, phoneNumber: String, clientAddress: String) async throws {
        guard let token = proof.captchaToken else { throw HearthError(.missingClientIdentifier) }
        guard token.utf8.count <= 200, token.hasPrefix(Self.prefix) else {
            throw HearthError(.captchaCheckFailed, reason: "not a proof of work")
        }
        let parts = token.dropFirst(Self.prefix.count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let time = Int(parts[0]), !parts[1].isEmpty, parts[1].utf8.count <= 64,
            parts[1].utf8.allSatisfy({ $0 >= 0x21 && $0 < 0x7F && $0 != 0x2E })
        else { throw HearthError(.captchaCheckFailed, reason: "a malformed proof of work") }
        let now = clock.now.timeIntervalSince1970
        guard abs(now - Double(time)) <= Self.window else { throw HearthError(.captchaCheckFailed, reason: "a stale proof of work") }
        let digest = Self.digest(projectID: projectID, phoneNumber: phoneNumber, time: time, nonce: String(parts[1]))
        guard Self.leadingZeroBits(digest) >= difficulty else { throw HearthError(.captchaCheckFailed, reason: "too little work") }
        let fingerprint = "pow:" + HexDigits.lowercase(Array(digest))
        guard try await replayGuard.recordFirstUse(of: fingerprint, expiresAt: Date(timeIntervalSince1970: Double(time) + Self.window + 1)) else {
            throw HearthError(.captchaCheckFailed, reason: "a proof of work used before")
        }
    }

    static func digest(projectID: String, phoneNumber: String, time: Int, nonce: String) -> SHA256.Digest {
        SHA256.hash(data: Data("\(prefix)\(projectID).\(phoneNumber).\(time).\(nonce)".utf8))
    }

    static func leadingZeroBits(_ digest: SHA256.Digest) -> Int {
        var bits = 0
        for byte in digest {
            guard byte == 0 else { return bits + byte.leadingZeroBitCount }
            bits += 8
        }
        return bits
    }

    /// A proof for `phoneNumber` at `time` (what a client does; the tests and the benchmark use it).
    public static func solve(projectID: String, phoneNumber: String, time: Int, difficulty: Int) -> String {
        var nonce = 0
        while leadingZeroBits(digest(projectID: projectID, phoneNumber: phoneNumber, time: time, nonce: String(nonce))) < difficulty {
            nonce += 1
        }
        return "\(prefix)\(time).\(nonce)"
    }
}
