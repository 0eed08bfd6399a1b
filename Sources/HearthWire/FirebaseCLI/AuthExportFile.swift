/// The files of the Firebase CLI's `auth:export` and `auth:import`, JSON and CSV, as `hearth users export` writes
/// them and `hearth users import` reads them. A file exported from Firebase imports into Hearth with its
/// password hashes, and one exported from Hearth imports into Firebase.
///
/// JSON: `{"users": [{"localId", "email", "emailVerified", "passwordHash", "salt", "displayName", "photoUrl",
/// "lastSignedInAt", "createdAt", "phoneNumber", "disabled", "customAttributes", "providerUserInfo": [{"providerId",
/// "rawId", "email", "displayName", "photoUrl"}], "mfaInfo": [{"mfaEnrollmentId", "displayName", "phoneInfo",
/// "enrolledAt"}]}]}`, times in milliseconds (numbers or strings), hashes and salts in base64.
///
/// `mfaInfo` holds phone second factors only, as `accounts:batchCreate` takes them. TOTP factors are never exported:
/// their secrets never leave the server, so their users enrol an authenticator again. The Firebase CLI neither
/// writes `mfaInfo` nor accepts it (its `auth:import` refuses a user with a key it does not know): export without
/// second factors for it. CSV has no column for them.
///
/// CSV: one user per line, no header, 28 columns: uid, e-mail, verified (`true`/`false`), hash, salt, display name,
/// photo URL; then id, e-mail, display name and photo URL for Google (7–10), Facebook (11–14), Twitter (15–18) and
/// GitHub (19–22); then created, last sign-in (milliseconds), phone number, disabled, custom claims (JSON).
public struct AuthExportFile: Codable, Sendable, Equatable {
    public var users: [ExportedUser]

    public init(users: [ExportedUser]) { self.users = users }

    /// The providers a CSV line has columns for, in column order (the only ones the Firebase CLI exports).
    public static let csvProviders = ["google.com", "facebook.com", "twitter.com", "github.com"]
}

/// One user of an ``AuthExportFile``.
public struct ExportedUser: Codable, Sendable, Equatable {
    public var localId: String
    public var email: String?
    public var emailVerified: Bool?
    public var passwordHash: String?
    public var salt: String?
    public var displayName: String?
    public var photoUrl: String?
    /// Milliseconds since 1970.
    public var lastSignedInAt: WireInt64?
    public var createdAt: WireInt64?
    public var phoneNumber: String?
    public var disabled: Bool?
    public var customAttributes: String?
    public var providerUserInfo: [ExportedProvider]?
    /// Phone second factors (never TOTP ones).
    public var mfaInfo: [MFAEnrollment]?

    public init(localId: String) { self.localId = localId }

    private static func standardBase64(_ text: String) -> String {
        String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
    }

    /// The user as `accounts:batchCreate` takes it.
    public var userInfo: UserInfo {
        var info = UserInfo(localId: localId)
        info.email = email
        info.emailVerified = emailVerified
        info.passwordHash = passwordHash
        info.salt = salt
        info.displayName = displayName
        info.photoUrl = photoUrl
        info.lastLoginAt = lastSignedInAt
        info.createdAt = createdAt
        info.phoneNumber = phoneNumber
        info.disabled = disabled
        info.customAttributes = customAttributes
        info.providerUserInfo = providerUserInfo?.map {
            ProviderUserInfo(providerId: $0.providerId, rawId: $0.rawId, email: $0.email, displayName: $0.displayName, photoUrl: $0.photoUrl)
        }
        info.mfaInfo = mfaInfo
        return info
    }

    /// A user as `accounts:batchGet` lists it, with the parts the Firebase CLI exports.
    public init(_ info: UserInfo) {
        localId = info.localId
        email = info.email
        emailVerified = info.emailVerified
        // Standard base64, as the Firebase CLI writes it (its import refuses the URL-safe form the API sends).
        passwordHash = info.passwordHash == UserInfo.redacted ? nil : info.passwordHash.map(Self.standardBase64)
        salt = passwordHash == nil ? nil : info.salt.map(Self.standardBase64)
        displayName = info.displayName
        photoUrl = info.photoUrl
        lastSignedInAt = info.lastLoginAt
        createdAt = info.createdAt
        phoneNumber = info.phoneNumber
        disabled = info.disabled
        customAttributes = info.customAttributes
        let providers = (info.providerUserInfo ?? []).filter { !["password", "phone"].contains($0.providerId) }.map {
            ExportedProvider(providerId: $0.providerId, rawId: $0.rawId ?? "", email: $0.email, displayName: $0.displayName, photoUrl: $0.photoUrl)
        }
        providerUserInfo = providers.isEmpty ? nil : providers
        // Phone factors only: a TOTP factor's secret is never exported.
        let phoneFactors = (info.mfaInfo ?? []).compactMap { factor in
            factor.phoneInfo.map {
                MFAEnrollment(mfaEnrollmentId: factor.mfaEnrollmentId, displayName: factor.displayName, enrolledAt: factor.enrolledAt, phoneInfo: $0)
            }
        }
        mfaInfo = phoneFactors.isEmpty ? nil : phoneFactors
    }
}

public struct ExportedProvider: Codable, Sendable, Equatable {
    public var providerId: String
    public var rawId: String
    public var email: String?
    public var displayName: String?
    public var photoUrl: String?

    public init(providerId: String, rawId: String, email: String? = nil, displayName: String? = nil, photoUrl: String? = nil) {
        self.providerId = providerId
        self.rawId = rawId
        self.email = email
        self.displayName = displayName
        self.photoUrl = photoUrl
    }
}

extension UserInfo {
    /// base64 of "REDACTED": what lookups show in place of a password hash.
    public static let redacted = "UkVEQUNURUQ="
}

// MARK: - CSV

extension AuthExportFile {
    /// A problem with one line of a CSV file.
    public struct CSVError: Error, Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var problem: String

        public init(line: Int, problem: String) {
            self.line = line
            self.problem = problem
        }

        public var description: String { "line \(line): \(problem)" }
    }

    /// Reads a CSV export. Fields may be quoted (`"a, b"`, with `""` for a quote inside); a trailing comma, empty
    /// lines and `\r\n` endings are accepted. Throws ``CSVError`` naming the first bad line.
    public static func csv(_ text: String) throws -> AuthExportFile {
        var text = text
        let read: Result<AuthExportFile, CSVError> = text.withUTF8 { utf8 in
            Result { () throws(CSVError) in
                var rows = CSVRows(maximumLineBytes: .max)
                var users: [ExportedUser] = []
                while true {
                    let row: (Int, [String])?
                    do throws(CSVRows.Failure) {
                        row = try rows.next(in: UnsafeRawBufferPointer(utf8))
                    } catch {
                        switch error {
                        case .line(let error): throw error
                        case .tooLong(let line): throw CSVError(line: line, problem: "the line is too long")
                        }
                    }
                    guard let (number, fields) = row else { return AuthExportFile(users: users) }
                    users.append(try csvUser(fields, line: number))
                }
            }
        }
        return try read.get()
    }

    /// The user a CSV row's fields describe (see ``AuthExportFile`` for the columns).
    static func csvUser(_ fields: [String], line number: Int) throws(CSVError) -> ExportedUser {
        func field(_ index: Int) -> String? {
            guard index < fields.count, !fields[index].isEmpty else { return nil }
            return fields[index]
        }
        func milliseconds(_ index: Int) throws(CSVError) -> WireInt64? {
            guard let text = field(index) else { return nil }
            guard let value = Int64(text) else { throw CSVError(line: number, problem: "column \(index + 1) is not a time in milliseconds") }
            return WireInt64(value)
        }
        func flag(_ index: Int) throws(CSVError) -> Bool? {
            switch field(index) {
            case nil: return nil
            case "true": return true
            case "false": return false
            default: throw CSVError(line: number, problem: "column \(index + 1) is neither true nor false")
            }
        }
        guard let uid = field(0) else { throw CSVError(line: number, problem: "no uid in column 1") }
        var user = ExportedUser(localId: uid)
        user.email = field(1)
        user.emailVerified = try flag(2)
        user.passwordHash = field(3)
        user.salt = field(4)
        user.displayName = field(5)
        user.photoUrl = field(6)
        var providers: [ExportedProvider] = []
        for (offset, providerID) in csvProviders.enumerated() {
            let column = 7 + 4 * offset
            guard let rawID = field(column) else { continue }
            providers.append(
                ExportedProvider(
                    providerId: providerID, rawId: rawID, email: field(column + 1), displayName: field(column + 2), photoUrl: field(column + 3)))
        }
        user.providerUserInfo = providers.isEmpty ? nil : providers
        user.createdAt = try milliseconds(23)
        user.lastSignedInAt = try milliseconds(24)
        user.phoneNumber = field(25)
        user.disabled = try flag(26)
        user.customAttributes = field(27)
        return user
    }

    /// The users as CSV lines, each ending with a comma as the Firebase CLI writes them. Fields holding a comma,
    /// a quote or a line break are quoted. Providers without a column (Apple, Microsoft, …) are left out, as
    /// the Firebase CLI leaves them out; the JSON form keeps them.
    public func csv() -> String {
        var text = ""
        for user in users {
            var fields = [String](repeating: "", count: 28)
            fields[0] = user.localId
            fields[1] = user.email ?? ""
            fields[2] = String(user.emailVerified ?? false)
            fields[3] = user.passwordHash ?? ""
            fields[4] = user.salt ?? ""
            fields[5] = user.displayName ?? ""
            fields[6] = user.photoUrl ?? ""
            for provider in user.providerUserInfo ?? [] {
                guard let offset = Self.csvProviders.firstIndex(of: provider.providerId) else { continue }
                let column = 7 + 4 * offset
                fields[column] = provider.rawId
                fields[column + 1] = provider.email ?? ""
                fields[column + 2] = provider.displayName ?? ""
                fields[column + 3] = provider.photoUrl ?? ""
            }
            fields[23] = user.createdAt.map { String($0.value) } ?? ""
            fields[24] = user.lastSignedInAt.map { String($0.value) } ?? ""
            fields[25] = user.phoneNumber ?? ""
            fields[26] = String(user.disabled ?? false)
            fields[27] = user.customAttributes ?? ""
            text += fields.map(Self.quoted).joined(separator: ",") + ",\n"
        }
        return text
    }

    private static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        var escaped = "\""
        for character in field {
            escaped.append(character)
            if character == "\"" { escaped.append("\"") }
        }
        return escaped + "\""
    }

    /// Without the empty field a trailing comma leaves.
    static func trimmed(_ fields: [String]) -> [String] {
        fields.count == 29 && fields[28].isEmpty ? Array(fields.dropLast()) : fields
    }
}

/// The rows of CSV text, read from its UTF-8 bytes one at a time: fields may be quoted (holding commas, line breaks and
/// quotes written `""`), a line ends at `\n`, `\r\n` or `\r`, and empty lines are passed over. The bytes that
/// delimit (`"`, `,`, `\r`, `\n`) are ASCII, which no byte of a longer UTF-8 character can be.
struct CSVRows {
    enum Failure: Error {
        case line(AuthExportFile.CSVError)
        /// A physical line (whatever quotes say) longer than the limit, with its number.
        case tooLong(line: Int)
    }

    let maximumLineBytes: Int
    /// Where the next row starts.
    var offset = 0
    /// The line the next row starts on (a line break inside quotes counts).
    private var line = 1
    /// The physical line being measured, and its length so far.
    private var physicalLine = 1
    private var lineLength = 0

    init(maximumLineBytes: Int) { self.maximumLineBytes = maximumLineBytes }

    /// The next row that is not empty, with the number of the line it starts on; `nil` at the end of `bytes`.
    mutating func next(in bytes: UnsafeRawBufferPointer) throws(Failure) -> (Int, [String])? {
        while offset < bytes.count {
            let row = try self.row(in: bytes)
            if row.1.count == 1 && row.1[0].isEmpty { continue }
            return row
        }
        return nil
    }

    private mutating func measure(_ byte: UInt8) throws(Failure) {
        if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
            if byte == UInt8(ascii: "\n") { physicalLine += 1 }
            lineLength = 0
            return
        }
        lineLength += 1
        if lineLength > maximumLineBytes { throw .tooLong(line: physicalLine) }
    }

    private mutating func row(in bytes: UnsafeRawBufferPointer) throws(Failure) -> (Int, [String]) {
        let rowLine = line
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var wasQuoted = false
        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            wasQuoted = false
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            try measure(byte)
            if quoted {
                if byte != UInt8(ascii: "\"") {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    field.append(byte)
                } else if offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") {
                    offset += 1
                    try measure(byte)
                    field.append(byte)
                } else {
                    quoted = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\"") where field.isEmpty && !wasQuoted:
                quoted = true
                wasQuoted = true
            case UInt8(ascii: ","):
                endField()
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                if byte == UInt8(ascii: "\r"), offset < bytes.count, bytes[offset] == UInt8(ascii: "\n") {
                    offset += 1
                    try measure(UInt8(ascii: "\n"))
                }
                endField()
                line += 1
                return (rowLine, AuthExportFile.trimmed(fields))
            default:
                field.append(byte)
            }
        }
        if quoted { throw .line(AuthExportFile.CSVError(line: rowLine, problem: "a quoted field never ends")) }
        endField()
        return (rowLine, AuthExportFile.trimmed(fields))
    }
}
