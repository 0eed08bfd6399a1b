/// A load scenario: which endpoint it drives, which ceiling bounds it, and the target it should meet.
enum Scenario: String, CaseIterable, Sendable {
    case signup
    case refresh
    case lookup
    case signin
    /// Password sign-in of native accounts while six wrong-password attempts at a time go to accounts imported
    /// with costly bcrypt hashes (the attack of issue 24): what the imported lane leaves to normal users.
    case signinUnderAttack
    case passwordReset
    /// Phone sign-in with test phone numbers (no SMS): codes sent to prepare sessions, then each session's code
    /// entered once (`signInWithPhoneNumber`), the step that mints a session and signs a token.
    case phone
    /// Password + TOTP sign-in of accounts with an authenticator-app factor: the first factors (which answer
    /// `mfaPendingCredential`) are made while preparing, at the scrypt lane's pace, and reported; the measured step is
    /// `mfaSignIn:finalize` with a fresh code, the step that mints the session and signs the token.
    case mfaTOTP
    /// SAML sign-in with the IdP's posted response in `signInWithIdp`'s `postBody`: AuthnRequests started and responses
    /// signed by the sandbox IdP (libxmlsec1) while preparing; the measured step checks the XML signature, the
    /// audience, the request it answers and the assertion's single use, then signs the person in and signs a token.
    case saml
    /// Anonymous sign-up in a tenant (`tenantId` in the body): ``signup`` with the tenant looked up and every query
    /// scoped to it, measured beside it in the same run.
    case tenantSignup
    /// `GET` of a path no route has: the router, the middleware and the JSON error, read against the bare server.
    case notFound
    /// `GET /.well-known/jwks.json`: a document that changes once a rotation, served from bytes made at the change.
    case jwks
    /// Username-less passkey sign-in: accounts with an ES256 passkey and one challenge per sign-in made while preparing;
    /// the measured step is `passkeySignIn:finalize` (the challenge taken, the assertion verified, the counter and the
    /// session written, a token signed), reported against the ES256 verification ceiling.
    case passkey

    /// The CPU-bound operation that bounds a scenario's throughput.
    enum Ceiling: Sendable, CaseIterable {
        case rs256
        case scrypt
        /// Requests per second of a bare Hummingbird hello-world on the machine: the framework's ceiling
        /// (``BareServer``).
        case bareServer
        /// ES256 (ECDSA P-256, SHA-256) verification of a WebAuthn assertion's signature.
        case es256

        var name: String {
            switch self {
            case .rs256: "RS256"
            case .scrypt: "scrypt"
            case .bareServer: "bare Hummingbird"
            case .es256: "ES256 verify"
            }
        }
    }

    /// What "good enough" means for a scenario.
    enum Target: Sendable {
        /// At least this fraction of the ceiling's operations per second.
        case fractionOfCeiling(Double)
        /// At least this many successful requests per second.
        case requestsPerSecond(Double)
    }

    /// Accepts the short names and a few spelled-out aliases.
    init?(argument: String) {
        switch argument.lowercased().filter({ !$0.isWhitespace }) {
        case "signup", "sign-up", "anonymous", "anonymous-signup": self = .signup
        case "refresh", "token", "token-refresh": self = .refresh
        case "lookup": self = .lookup
        case "signin", "sign-in", "password", "password-signin": self = .signin
        case "signinunderattack", "sign-in-under-attack", "attack", "imported-hash-attack": self = .signinUnderAttack
        case "passwordreset", "password-reset", "reset", "sendoobcode": self = .passwordReset
        case "phone", "phone-signin", "sms", "signinwithphonenumber": self = .phone
        case "mfatotp", "mfa", "totp", "mfa-totp", "second-factor", "mfasignin": self = .mfaTOTP
        case "saml", "saml-signin", "sso": self = .saml
        case "tenantsignup", "tenant-signup", "tenant": self = .tenantSignup
        case "notfound", "not-found", "404": self = .notFound
        case "jwks", "jwks.json", "keys": self = .jwks
        case "passkey", "passkeys", "passkey-signin", "webauthn": self = .passkey
        default: return nil
        }
    }

    var title: String {
        switch self {
        case .signup: "anonymous sign-up"
        case .refresh: "token refresh"
        case .lookup: "lookup"
        case .signin: "password sign-in"
        case .signinUnderAttack: "password sign-in, imported-hash attack beside"
        case .passwordReset: "password-reset mail"
        case .phone: "phone sign-in (test numbers)"
        case .mfaTOTP: "second factor (TOTP) of a password sign-in"
        case .saml: "SAML sign-in (posted response)"
        case .tenantSignup: "anonymous sign-up in a tenant"
        case .notFound: "unknown path (404)"
        case .jwks: "JWKS document"
        case .passkey: "passkey sign-in (username-less)"
        }
    }

    var path: String {
        switch self {
        case .signup, .tenantSignup: "/v1/accounts:signUp?key=bench"
        case .refresh: "/v1/token?key=bench"
        case .lookup: "/v1/accounts:lookup?key=bench"
        case .signin, .signinUnderAttack: "/v1/accounts:signInWithPassword?key=bench"
        case .passwordReset: "/v1/accounts:sendOobCode?key=bench"
        case .phone: "/v1/accounts:signInWithPhoneNumber?key=bench"
        case .mfaTOTP: "/v2/accounts/mfaSignIn:finalize?key=bench"
        case .saml: "/v1/accounts:signInWithIdp?key=bench"
        case .notFound: "/no/such/path"
        case .jwks: "/.well-known/jwks.json"
        case .passkey: "/v2/accounts/passkeySignIn:finalize?key=bench"
        }
    }

    var ceiling: Ceiling? {
        switch self {
        case .signup, .refresh, .phone, .mfaTOTP, .saml, .tenantSignup: .rs256
        case .passwordReset: nil
        case .signin, .signinUnderAttack: .scrypt
        case .lookup, .notFound, .jwks: .bareServer
        case .passkey: .es256
        }
    }

    /// Whether the scenario's requests may be sent again and again (wrk sends them round-robin with no end): not the
    /// single-use phone sessions, pending second factors and SAML responses.
    var requestsAreReusable: Bool {
        switch self {
        case .phone, .mfaTOTP, .saml, .signinUnderAttack, .passkey: false
        default: true
        }
    }

    /// The target on `database`: issue 30's, against the best RS256 ceiling of the machine (the faster of two
    /// libraries) and the bare server. PostgreSQL's, one replica on the same cores as its database, are lower.
    func target(on database: DatabaseMode) -> Target {
        switch (self, database) {
        case (.signup, .postgres), (.tenantSignup, .postgres): .fractionOfCeiling(0.30)
        case (.refresh, .postgres): .fractionOfCeiling(0.35)
        case (.lookup, .postgres): .fractionOfCeiling(0.15)
        case (.signin, .postgres): .fractionOfCeiling(0.90)
        default: target
        }
    }

    /// The target on SQLite.
    var target: Target {
        switch self {
        case .signup: .fractionOfCeiling(0.40)
        case .refresh: .fractionOfCeiling(0.50)
        case .lookup: .fractionOfCeiling(0.35)
        case .notFound, .jwks: .fractionOfCeiling(0.70)
        case .signin: .fractionOfCeiling(0.92)
        // The imported lane (half the cores) keeps running bcrypt for the attack: the other half is the normal users'.
        case .signinUnderAttack: .fractionOfCeiling(0.35)
        // A code and a mail written, two counters counted, a mail rendered: database writes, no signature.
        case .passwordReset: .requestsPerSecond(1_000)
        // As a sign-up (a write and a signature), plus the code's conditional write.
        case .phone: .fractionOfCeiling(0.40)
        // As phone sign-in: the pending credential's two conditional writes, the code's counter, the session and a
        // signature.
        case .mfaTOTP: .fractionOfCeiling(0.35)
        // A signature of the IdP's checked (two for a signed Response and Assertion), the XML parsed and
        // canonicalised, the assertion's id counted once, the browser sign-in's row consumed, the account and the
        // session written, a token signed.
        case .saml: .fractionOfCeiling(0.25)
        // As a sign-up: the tenant is read from a cache of five seconds.
        case .tenantSignup: .fractionOfCeiling(0.40)
        // Each sign-in also signs an ID token (RS256, some ten times an ES256 verification's cost) and writes the
        // challenge, the passkey's use and the session: the target is that share of the verification ceiling.
        case .passkey: .fractionOfCeiling(0.05)
        }
    }

    /// The test phone numbers the servers are given for ``phone`` (their code: ``phoneCode``), so sign-ins spread
    /// over ten accounts rather than queue on one.
    static let phoneNumbers = (0..<10).map { "+1650555010\($0)" }
    static let phoneCode = "123456"
    static let phoneSendPath = "/v1/accounts:sendVerificationCode?key=bench"
    /// `signIn.phoneNumber.testPhoneNumbers` as the servers' environment gives it.
    static var phoneTestNumbersSetting: String { phoneNumbers.map { "\($0)=\(phoneCode)" }.joined(separator: ",") }
    /// The SAML provider the ``saml`` scenario creates, and the SP entity ID it gives it.
    static let samlProviderID = "saml.bench"
    static let samlEntityID = "https://hearth.bench/sp"
}

extension String {
    /// Makes `value` safe inside a JSON string literal (the fixtures only hold tokens and e-mail addresses).
    var jsonEscaped: String {
        var result = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
