import Foundation
import HTTPTypes
import HearthCore
import HearthServer
import Hummingbird
import NIOCore

/// Development mode's SMS outbox: the verification codes phone sign-in would have sent by SMS, kept in memory (the
/// newest ``capacity``), shown at `/sandbox/sms` and listed by the Firebase emulator's
/// `GET /emulator/v1/projects/{project}/verificationCodes`, which test tooling reads to sign in without a phone.
/// Codes live only here: the database keeps their hashes, and no log line holds one.
public final class SMSOutbox: VerificationCodeSending, Sendable {
    /// How many messages it keeps.
    public static let capacity = 1_000
    private let messages = LockedBox<[VerificationCodeMessage]>([])

    public init() {}

    public func send(_ message: VerificationCodeMessage) async throws {
        messages.withLock { messages in
            messages.append(message)
            if messages.count > Self.capacity { messages.removeFirst(messages.count - Self.capacity) }
        }
    }

    /// The messages, oldest first.
    public var sent: [VerificationCodeMessage] { messages.withLock { $0 } }

    func addRoutes(to router: Router<HearthRequestContext>, projectID: String) {
        router.get("\(SandboxExtension.mountPath)/sms", use: page)
        router.get("/emulator/v1/projects/:project/verificationCodes") { [self] _, context in
            // Another project is Google's error envelope, as on the project-scoped admin routes.
            guard context.parameters.get("project") == projectID else { throw HearthError(.projectNotFound) }
            return try self.listing()
        }
    }

    /// `{"verificationCodes": [{"phoneNumber", "code", "sessionInfo"}]}`, oldest first, as the emulator lists them.
    func listing() throws -> Response {
        struct Listing: Encodable {
            struct Code: Encodable {
                let phoneNumber: String
                let code: String
                let sessionInfo: String
            }
            let verificationCodes: [Code]
        }
        let codes = sent.map { Listing.Code(phoneNumber: $0.phoneNumber, code: $0.code, sessionInfo: $0.sessionInfo) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        let body = try encoder.encode(Listing(verificationCodes: codes))
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    @Sendable func page(_ request: Request, context: HearthRequestContext) async throws -> Response {
        let shown = sent.suffix(MailOutbox.shownMails).reversed()
        var items = ""
        for message in shown {
            items += """
                <li><article><h2>\(MailOutbox.escaped(message.code))</h2>
                <p class="meta">To <b>\(MailOutbox.escaped(message.phoneNumber))</b> · \
                \(MailOutbox.escaped(ISO8601DateFormatter().string(from: message.createdAt)))</p></article></li>

                """
        }
        return MailOutbox.page(
            title: "SMS outbox", itemStyle: "h2{font:1.6rem/1.2 ui-monospace,monospace;letter-spacing:.2em;margin:.2rem 0}",
            banner: "Development mode: these verification codes were not sent. Newest first; the last \(MailOutbox.shownMails) are shown. "
                + "Test phone numbers get their fixed code and no SMS.",
            items: shown.isEmpty ? nil : items, empty: "No SMS yet.")
    }
}
