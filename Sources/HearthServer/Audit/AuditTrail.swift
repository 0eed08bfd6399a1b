import Foundation
import HTTPTypes
import HearthCore
import Hummingbird
import Logging

/// Writes audit events (see ``AuditEvent``) right after the change they record has been stored.
///
/// Each insert is awaited (events of the same moment share one statement), so an event is readable once the request has
/// been answered. A failed insert never fails the request: the change already happened, and a sign-in
/// that succeeded must not turn into an error. It is logged at error level (kind and error type only).
struct AuditTrail: AuditRecording {
    let services: HearthServices

    /// Records `event` as it is; a sign-in or sign-up is noted for the access log and the metrics.
    func record(_ event: AuditEvent) async {
        if event.kind == .signedUp || event.kind == .signedIn, let method = event.method {
            RequestRecord.noteSignedIn(provider: method, newUser: event.kind == .signedUp)
        }
        await Self.insert(event, into: services.store, logger: services.logger)
    }

    /// Records an event at the clock's time.
    func record(
        _ kind: AuditEvent.Kind, uid: String?, actor: AuditEvent.Actor, method: String? = nil, origin: AuditOrigin = .none,
        details: [String: String] = [:]
    ) async {
        await record(
            AuditEvent(
                time: services.clock.now, kind: kind, uid: uid, actor: actor, actorID: origin.actorID, method: method,
                clientAddress: origin.address, details: details))
    }

    /// Records an event caused by `request` (see ``origin(_:context:)``).
    func record(
        _ kind: AuditEvent.Kind, uid: String?, actor: AuditEvent.Actor, method: String? = nil, request: Request,
        context: some RequestContext, details: [String: String] = [:]
    ) async {
        await record(kind, uid: uid, actor: actor, method: method, origin: origin(request, context: context), details: details)
    }

    /// The client's address as a counter key and as audit events keep it (see ``origin(_:context:)``).
    func clientOrigin(_ request: Request, context: some RequestContext) -> ClientOrigin {
        ClientOrigin(
            counterAddress: AbuseGuard(services: services).clientAddress(request, context: context), audit: origin(request, context: context))
    }

    /// The client's address (see ``ClientAddressResolver``) and, for an administrator, which credential called.
    func origin(_ request: Request, context: some RequestContext) -> AuditOrigin {
        AuditOrigin(
            address: AbuseGuard(services: services).auditAddress(request, context: context),
            actorID: (context as? any CallerRequestContext)?.administratorCredential,
            userAgent: request.headers[.userAgent].map { String($0.prefix(512)) },
            locale: request.headers[HTTPField.Name("X-Firebase-Locale")!].map { String($0.prefix(35)) })
    }

    /// Inserts `event`; a failure is logged, never thrown.
    static func insert(_ event: AuditEvent, into store: any AuditStore, logger: Logger) async {
        do {
            try await store.insertAuditEvent(event)
        } catch {
            logger.error(
                "could not record an audit event", metadata: ["kind": "\(event.kind)", "error": "\(String(describing: type(of: error)))"])
        }
    }
}
