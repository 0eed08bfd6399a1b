import Hummingbird

/// Who is calling: an app that presents an API key, or an administrator with a bearer credential
/// (an Admin SDK, `hearth users`, HearthAdmin). Identity Toolkit routes such as `accounts:lookup` and
/// `accounts:update` do more for an administrator: any user by id, e-mail or phone, disabling, claims.
public enum Caller: Sendable, Equatable {
    case app
    case administrator
}

/// A request context that records the ``Caller``, set by ``APIKeyMiddleware`` and ``AdminAuthMiddleware``.
public protocol CallerRequestContext: RequestContext {
    var caller: Caller { get set }
    /// The administrator's credential as audit events name it (``AdministratorCredentials/identify(_:)``); `nil`
    /// unless ``caller`` is an administrator.
    var administratorCredential: String? { get set }
    /// The one tenant the administrator's credential is for (``Administrator/tenantID``); `nil`: the whole project, or
    /// no administrator.
    var administratorTenant: String? { get set }
}
