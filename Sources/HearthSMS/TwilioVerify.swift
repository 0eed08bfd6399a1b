import AsyncHTTPClient
import Foundation
import HearthCore
import HearthFormEncoding

/// Twilio Verify, for operators who want Twilio to own the code: `POST {verifyBaseURL}/v2/Services/{ServiceSid}/
/// Verifications` (`To`, `Channel`, `Locale`) sends one, `POST …/VerificationCheck` (`To`, `Code`) answers
/// `"status": "approved"` for the right one, which Twilio then forgets. Authentication as for Messaging.
public struct TwilioVerify: ExternalPhoneVerification {
    public let settings: SMSGatewaySettings.Twilio
    /// Regions (or `*`) whose numbers get the code by WhatsApp.
    public let whatsappRegions: Set<String>
    let http: GatewayHTTP

    public init(settings: SMSGatewaySettings.Twilio, whatsappRegions: Set<String> = [], httpClient: HTTPClient, timeout: Double = 15) {
        self.settings = settings
        self.whatsappRegions = whatsappRegions
        self.http = GatewayHTTP(client: httpClient, timeout: timeout)
    }

    /// Twilio Verify's locales among the languages Hearth's clients ask for (`X-Firebase-Locale`): the primary subtag.
    static let locales: Set<String> = ["en", "hi", "id", "bn", "es", "pt", "fr", "de", "ar", "zh", "ja", "ko", "ru", "tr", "vi", "th", "ms", "ur"]

    /// A verification (`status` a word) or an error (`status` the HTTP status, `code` and `message` Twilio's).
    struct Reply: Decodable {
        let status: String?
        let code: Int?
        let message: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            status = try? container.decodeIfPresent(String.self, forKey: .status)
            code = try? container.decodeIfPresent(Int.self, forKey: .code)
            message = try? container.decodeIfPresent(String.self, forKey: .message)
        }
        enum CodingKeys: String, CodingKey { case status, code, message }
    }

    func post(_ path: String, _ form: [(String, String)]) async throws -> (status: Int, reply: Reply?) {
        guard let service = settings.verifyServiceSID else { throw HearthError(.internalError, reason: "no Twilio Verify service") }
        let user = settings.apiKeySID ?? settings.accountSID
        let credentials = Data("\(user):\(settings.authToken)".utf8).base64EncodedString()
        do {
            let answer = try await http.post(
                settings.verifyBaseURL.appendingPathComponent("v2/Services/\(service)/\(path)"),
                headers: [("Authorization", "Basic \(credentials)"), ("Content-Type", "application/x-www-form-urlencoded")],
                body: Data(FormEncoding.encode(form).utf8), gateway: "Twilio Verify")
            return (answer.status, try? JSONDecoder().decode(Reply.self, from: answer.body))
        } catch let failure as SMSDeliveryFailure {
            throw HearthError(.storageUnavailable, reason: "Twilio Verify unavailable: \(failure.message)")
        }
    }

    public func start(phoneNumber: String, languageCode: String?) async throws {
        let region = PhoneRegions.region(of: phoneNumber) ?? ""
        var form = [("To", phoneNumber), ("Channel", whatsappRegions.contains("*") || whatsappRegions.contains(region) ? "whatsapp" : "sms")]
        let language = String((languageCode ?? "").prefix { $0.isLetter }).lowercased()
        if Self.locales.contains(language) { form.append(("Locale", language)) }
        let (status, reply) = try await post("Verifications", form)
        guard !(200..<300).contains(status) else { return }
        let reason = "Twilio Verify answered HTTP \(status): \(reply?.code.map(String.init) ?? "-") \(GatewayHTTP.excerpt(reply?.message ?? ""))"
        switch reply?.code {
        // 60200 invalid parameter (the number), 60205 SMS to a landline, 60410 a number Twilio blocks for fraud.
        case 60200?, 60205?, 60410?, 21211?, 21614?: throw HearthError(.invalidPhoneNumber, reason: reason)
        // 60203 too many codes sent to the number, 20429 too many requests.
        case 60203?, 20429?: throw HearthError(.tooManyAttempts, reason: reason)
        default: throw HearthError(.storageUnavailable, reason: reason)
        }
    }

    public func check(phoneNumber: String, code: String) async throws -> Bool {
        let (status, reply) = try await post("VerificationCheck", [("To", phoneNumber), ("Code", code)])
        if (200..<300).contains(status) { return reply?.status == "approved" }
        let reason = "Twilio Verify answered HTTP \(status): \(reply?.code.map(String.init) ?? "-")"
        // 404 (20404): no pending verification (expired, approved, or out of attempts); 60202: too many checks.
        if status == 404 || reply?.code == 60202 { throw HearthError(.sessionExpired, reason: reason) }
        throw HearthError(.storageUnavailable, reason: reason)
    }
}
