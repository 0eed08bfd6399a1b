/// `accounts:batchDelete`, administrators only: up to 1000 users at once.
public struct BatchDeleteRequest: Codable, Sendable, Equatable {
    public var localIds: [String]?
    /// Deletes enabled users too; without it each enabled user is an error (`NOT_DISABLED`).
    public var force: Bool?
    public var tenantId: String?
    public var targetProjectId: String?

    public init(localIds: [String]?, force: Bool? = nil) {
        self.localIds = localIds
        self.force = force
    }
}

public struct BatchDeleteResponse: Codable, Sendable, Equatable {
    /// Omitted when every user was deleted (or did not exist).
    public var errors: [BatchDeleteError]?

    public init(errors: [BatchDeleteError]?) { self.errors = errors }
}

public struct BatchDeleteError: Codable, Sendable, Equatable {
    public var index: Int
    public var localId: String?
    public var message: String?

    public init(index: Int, localId: String?, message: String?) {
        self.index = index
        self.localId = localId
        self.message = message
    }
}
