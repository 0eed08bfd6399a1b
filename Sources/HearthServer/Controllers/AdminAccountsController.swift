import Foundation
import HearthConfiguration
import HearthCore
import HearthWire
import HearthWireMapping
import Hummingbird

/// What `accounts:*` do for an administrator (an Admin SDK, HearthAdmin, `hearth users`): create a user with
/// a chosen uid, look users up by id, e-mail, phone or provider identity, change anything about one
/// (disable, claims, revocation, links), delete one or many, list them, query them, import them.
///
/// ``AccountsController`` hands its requests here when ``Caller/administrator`` is calling; the admin-only
/// routes (`batchGet`, `query`, `batchDelete`, `batchCreate`) come here directly.
struct AdminAccountsController<Context: CallerRequestContext>: Sendable {
    let accounts: AdministeredAccounts
    /// Listings, queries and batches read and write the store directly.
    let store: any HearthStore
    /// Listings export Hearth's own hashes with its parameters; imports refuse hashes costlier than the budget allows.
    let hashing: PasswordHashing
    let audit: AuditTrail
    let configuration: ServerConfiguration
    let clock: WallClock

    /// The routes only an administrator may call, under `group` (which already names the version).
    static func addRoutes(to group: RouterGroup<Context>, from source: ControllerSource<Self, Context>) {
        group.get("accounts:batchGet", use: source { $0.batchGet })
        group.post("accounts:query", use: source { $0.query })
        group.post("accounts:batchDelete", use: source { $0.batchDelete })
        group.post("accounts:batchCreate", use: source { $0.batchCreate })
    }

    /// The legacy v3 names the Firebase CLI's `auth:export` and `auth:import` call.
    static func addLegacyRoutes(to group: RouterGroup<Context>, from source: ControllerSource<Self, Context>) {
        group.post("downloadAccount", use: source { $0.downloadAccount })
        group.post("uploadAccount", use: source { $0.batchCreate })
    }

    /// Refuses an app's call of an admin-only route, as Google does when no OAuth credential comes with it.
    static func requireAdministrator(_ context: Context) throws {
        guard context.caller == .administrator else { throw RequestError.missingCredential }
    }

    /// `targetProjectId` in a body: an administrator's, and then the configured project's.
    static func checkTarget(_ targetProjectId: String?, _ context: Context, projectID: String) throws {
        guard let targetProjectId else { return }
        guard context.caller == .administrator else {
            throw HearthError(.insufficientPermission, detail: "Only authenticated requests can specify target_project_id.")
        }
        guard targetProjectId == projectID else { throw HearthError(.projectNotFound) }
    }

    private func body<T: Decodable>(_ type: T.Type, _ request: Request) async throws -> T {
        try await WireCoding.decode(type, from: request, limit: configuration.maxBodyBytes)
    }

    // MARK: accounts:signUp, POST accounts

    /// Creates a user as given: any uid, e-mail, password, phone number, names, verified and disabled flags.
    /// `origin`: where the administrator's request came from, for the audit event.
    func create(_ input: SignUpRequest, origin: AuditOrigin) async throws -> Response {
        let created = try await accounts.create(UserRecord(administratorSignUp: input, now: clock.now), password: input.password, from: origin)
        return WireCoding.response(
            SignUpResponse(
                localId: created.uid, email: created.email, displayName: created.displayName, idToken: nil, refreshToken: nil, expiresIn: nil))
    }

    // MARK: accounts:lookup

    /// Every user matching any of the ids, e-mails, phone numbers and provider identities, each once;
    /// `users` is absent when none matched.
    func lookup(_ input: LookupRequest) async throws -> Response {
        let found = try await accounts.lookup(
            uids: input.localId ?? [], emails: input.email ?? [], phoneNumbers: input.phoneNumber ?? [],
            identities: (input.federatedUserId ?? []).compactMap { identity in
                identity.providerId.flatMap { providerID in identity.rawId.map { .init(providerID: providerID, rawID: $0) } }
            })
        return WireCoding.response(LookupResponse(users: found.isEmpty ? nil : try await UserInfo.list(found, passkeysIn: store)))
    }

    // MARK: accounts:update

    /// Changes any part of a user, disabled or not, with no recent sign-in and no last-provider rule.
    func update(_ input: UpdateRequest, origin: AuditOrigin) async throws -> Response {
        guard let uid = input.localId else { throw HearthError(.missingLocalID) }
        let user = try await accounts.update(
            uid: uid, try AdministratorChange(input), password: input.password, fields: input.changedFieldNames, from: origin)
        return WireCoding.response(UpdateResponse(user))
    }

    // MARK: accounts:delete

    func delete(_ input: DeleteAccountRequest, origin: AuditOrigin) async throws -> Response {
        guard let uid = input.localId else { throw HearthError(.missingLocalID) }
        try await accounts.delete(uid: uid, from: origin)
        return WireCoding.response(DeleteAccountResponse())
    }

    // MARK: accounts:batchGet

    /// A page of users in uid order: `maxResults` (default 20, at most 1000) after `nextPageToken`.
    @Sendable func batchGet(_ request: Request, context: Context) async throws -> Response {
        try Self.requireAdministrator(context)
        let parameters = request.uri.queryParameters
        let requested = try parameters.get("maxResults").map { text -> Int in
            guard let number = Int(text) else { throw HearthError(.invalidArgument, detail: "maxResults must be an integer") }
            return number
        }
        return try await page(requested, after: parameters.get("nextPageToken"))
    }

    /// `downloadAccount`: ``batchGet(_:context:)`` with its parameters in a JSON body.
    @Sendable func downloadAccount(_ request: Request, context: Context) async throws -> Response {
        try Self.requireAdministrator(context)
        let input = try await body(DownloadAccountRequest.self, request)
        try Self.checkTarget(input.targetProjectId, context, projectID: configuration.projectID)
        return try await page(input.maxResults.map { Int($0.value) }, after: input.nextPageToken)
    }

    private func page(_ requested: Int?, after token: String?) async throws -> Response {
        let limit = min(max(requested.map { $0 > 0 ? $0 : AdminInput.defaultPage } ?? AdminInput.defaultPage, 1), AdminInput.maxBatch)
        let after = token.flatMap { $0.isEmpty ? nil : $0 }
        if let after, !UserText.isValidUID(after) { throw HearthError(.invalidPageToken) }
        let users = try await store.users(after: after, limit: limit)
        // A full page always names the next one, even when nothing follows (as production does).
        let next = users.count == limit ? users.last?.uid : nil
        return WireCoding.response(
            BatchGetResponse(users: users.isEmpty ? nil : users.map { AdminInput.exported($0, hasher: hashing.hasher) }, nextPageToken: next))
    }

    // MARK: accounts:query

    /// One page of users, sorted and paged by the store: the users the first expression matches (all
    /// users without one), `offset` skipped, at most `limit` (≤ 500). `recordsCount` is the page's size,
    /// or with `returnUserInfo: false` the number of users matching (as Firebase answers).
    @Sendable func query(_ request: Request, context: Context) async throws -> Response {
        try Self.requireAdministrator(context)
        let input = try await body(QueryRequest.self, request)
        try Self.checkTarget(input.targetProjectId, context, projectID: configuration.projectID)
        let query = try UserQuery(input)
        guard input.returnUserInfo != false else {
            let count = try await store.countUsers(matching: query.filter)
            return WireCoding.response(QueryResponse(recordsCount: WireInt64(Int64(count)), userInfo: nil))
        }
        let users = try await store.users(matching: query)
        // No user: `userInfo` absent, not empty.
        return WireCoding.response(
            QueryResponse(recordsCount: WireInt64(Int64(users.count)), userInfo: users.isEmpty ? nil : users.map(UserInfo.init)))
    }

    // MARK: accounts:batchDelete

    /// Deletes up to 1000 users; without `force` an enabled user is an error (`NOT_DISABLED`) and stays.
    /// Unknown uids are skipped.
    @Sendable func batchDelete(_ request: Request, context: Context) async throws -> Response {
        try Self.requireAdministrator(context)
        let input = try await body(BatchDeleteRequest.self, request)
        try Self.checkTarget(input.targetProjectId, context, projectID: configuration.projectID)
        let uids = input.localIds ?? []
        guard (1...AdminInput.maxBatch).contains(uids.count) else { throw HearthError(.localIDListExceedsLimit) }
        let refused = try await accounts.delete(uids: uids, force: input.force == true, from: audit.origin(request, context: context))
        let errors = refused.map {
            BatchDeleteError(index: $0.index, localId: $0.uid, message: "NOT_DISABLED : Disable the account before batch deletion.")
        }
        return WireCoding.response(BatchDeleteResponse(errors: errors.isEmpty ? nil : errors))
    }

    // MARK: accounts:batchCreate

    @Sendable func batchCreate(_ request: Request, context: Context) async throws -> Response {
        try Self.requireAdministrator(context)
        let input = try await body(BatchCreateRequest.self, request)
        try Self.checkTarget(input.targetProjectId, context, projectID: configuration.projectID)
        let importer = try AccountImport(AccountImport.Batch(input), now: clock.now, budget: hashing.budget)
        let errors = try await importer.run(into: store, passwords: accounts.passwords)
        let submitted = input.users?.count ?? 0
        await audit.record(
            .adminUsersImported, uid: nil, actor: .administrator, request: request, context: context,
            details: ["imported": String(max(0, submitted - errors.count)), "failed": String(errors.count)])
        return WireCoding.response(
            BatchCreateResponse(error: errors.isEmpty ? nil : errors.map { BatchCreateError(index: $0.index, message: $0.message) }))
    }
}
