import HearthCore
import HearthWire
import HearthWireMapping
import Hummingbird

/// Identity Platform's passkey calls (`/v2/accounts/passkeyEnrollment:*`, `/v2/accounts/passkeySignIn:*`):
/// ``PasskeyEnrollment`` and ``PasskeySignIn``, their wire forms in HearthWireMapping (`Passkeys+Wire`).
struct PasskeyController<Context: RequestContext>: Sendable {
    let enrollment: PasskeyEnrollment
    let signIn: PasskeySignIn
    let audit: AuditTrail
    let maxBodyBytes: Int

    static func addRoutes(to group: RouterGroup<Context>, from source: ControllerSource<Self, Context>) {
        group.post("accounts/passkeyEnrollment:start", use: source { $0.startEnrollment })
        group.post("accounts/passkeyEnrollment:finalize", use: source { $0.finalizeEnrollment })
        group.post("accounts/passkeySignIn:start", use: source { $0.startSignIn })
        group.post("accounts/passkeySignIn:finalize", use: source { $0.finalizeSignIn })
    }

    @Sendable func startEnrollment(_ request: Request, context: Context) async throws -> Response {
        let input = try await WireCoding.decode(StartPasskeyEnrollmentRequest.self, from: request, limit: maxBodyBytes)
        let options = try await enrollment.start(idToken: input.idToken, from: audit.clientOrigin(request, context: context))
        return WireCoding.response(StartPasskeyEnrollmentResponse(credentialCreationOptions: .init(options)))
    }

    @Sendable func finalizeEnrollment(_ request: Request, context: Context) async throws -> Response {
        let input = try await WireCoding.decode(FinalizePasskeyEnrollmentRequest.self, from: request, limit: maxBodyBytes)
        let signedIn = try await enrollment.finalize(
            idToken: input.idToken, try .init(input.authenticatorRegistrationResponse), name: input.name ?? input.displayName,
            from: audit.clientOrigin(request, context: context))
        return WireCoding.response(PasskeyTokensResponse(signedIn))
    }

    @Sendable func startSignIn(_ request: Request, context: Context) async throws -> Response {
        _ = try await WireCoding.decode(StartPasskeySignInRequest.self, from: request, limit: maxBodyBytes)
        let options = try await signIn.start(from: audit.clientOrigin(request, context: context))
        return WireCoding.response(StartPasskeySignInResponse(credentialRequestOptions: .init(options)))
    }

    @Sendable func finalizeSignIn(_ request: Request, context: Context) async throws -> Response {
        let input = try await WireCoding.decode(FinalizePasskeySignInRequest.self, from: request, limit: maxBodyBytes)
        let signedIn = try await signIn.finalize(
            try .init(input.authenticatorAuthenticationResponse), from: audit.clientOrigin(request, context: context))
        return WireCoding.response(PasskeyTokensResponse(signedIn))
    }
}
