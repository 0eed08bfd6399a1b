/// `GET accounts:batchGet` (legacy `downloadAccount`), administrators only: every user, `maxResults` at a
/// time in uid order, the next page named by `nextPageToken`.
public struct BatchGetResponse: Codable, Sendable, Equatable {
    public var kind = "identitytoolkit#DownloadAccountResponse"
    public var users: [UserInfo]?
    /// Present whenever the page is full, even when nothing follows (as production answers).
    public var nextPageToken: String?

    public init(users: [UserInfo]?, nextPageToken: String?) {
        self.users = users
        self.nextPageToken = nextPageToken
    }
}

/// `accounts:query` (legacy `queryAccounts`), administrators only.
public struct QueryRequest: Codable, Sendable, Equatable {
    /// `false` asks for the count alone.
    public var returnUserInfo: Bool?
    public var limit: WireInt64?
    public var offset: WireInt64?
    public var sortBy: WireEnum<QuerySortByNames>?
    public var order: WireEnum<QueryOrderNames>?
    public var expression: [QueryExpression]?
    public var tenantId: String?
    public var targetProjectId: String?

    public init(returnUserInfo: Bool? = nil, limit: WireInt64? = nil, offset: WireInt64? = nil, expression: [QueryExpression]? = nil) {
        self.returnUserInfo = returnUserInfo
        self.limit = limit
        self.offset = offset
        self.expression = expression
    }
}

/// One condition of `accounts:query`: users matching any one expression are returned.
public struct QueryExpression: Codable, Sendable, Equatable {
    public var email: String?
    public var phoneNumber: String?
    public var userId: String?

    public init(email: String? = nil, phoneNumber: String? = nil, userId: String? = nil) {
        self.email = email
        self.phoneNumber = phoneNumber
        self.userId = userId
    }
}

public struct QueryResponse: Codable, Sendable, Equatable {
    /// How many users match, before `limit` and `offset`.
    public var recordsCount: WireInt64
    public var userInfo: [UserInfo]?

    public init(recordsCount: WireInt64, userInfo: [UserInfo]?) {
        self.recordsCount = recordsCount
        self.userInfo = userInfo
    }
}
