import ArgumentParser
import Foundation
import HearthAdmin
import HearthWire

// `hearth users list|get|create|update|disable|enable|delete|revoke|set-claims`: one admin API call each,
// through ``AdminConnectionOptions`` (a running server, or the database directly).

extension UsersCommand {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List every user, in uid order.")
        @OptionGroup var connection: TenantAdminConnectionOptions
        @Option(name: .long, help: "Users per admin API call (1-1000).") var pageSize = 1_000

        func run() async throws {
            let pageSize = self.pageSize
            let count = try await connection.withAdmin { admin in
                try await printPages(line: UserPrinting.line) { token in
                    let page = try await admin.listUsers(pageSize: pageSize, pageToken: token)
                    return (page.users, page.nextPageToken)
                }
            }
            FileHandle.standardError.write(Data("\(count) user(s)\n".utf8))
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "get", abstract: "Show one user, by uid, --email or --phone.")
        @OptionGroup var connection: TenantAdminConnectionOptions
        @Argument(help: "The uid.") var uid: String?
        @Option(name: .long, help: "Find the user by e-mail address instead.") var email: String?
        @Option(name: .long, help: "Find the user by phone number (E.164, e.g. +15555550100) instead.") var phone: String?

        func validate() throws {
            guard [uid, email, phone].compactMap({ $0 }).count == 1 else { throw ValidationError("give one of a uid, --email or --phone") }
        }

        func run() async throws {
            let uid = self.uid
            let email = self.email
            let phone = self.phone
            let user = try await connection.withAdmin { admin in
                if let uid { return try await admin.user(uid: uid) }
                if let phone { return try await admin.user(phoneNumber: phone) }
                return try await admin.user(email: email ?? "")
            }
            print(UserPrinting.details(user))
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Create a user; prints its uid.")
        @OptionGroup var connection: TenantAdminConnectionOptions
        @Option(name: .long, help: "The uid (random when left out).") var uid: String?
        @Option(name: .long) var email: String?
        @Option(name: .long, help: "At least 6 characters. Prefer --password-file: a flag shows in the process list.") var password: String?
        @Option(name: .customLong("password-file"), help: "A file whose first line is the password.") var passwordFile: String?
        @Option(name: .customLong("display-name")) var displayName: String?
        @Option(name: .customLong("photo-url")) var photoURL: String?
        @Option(name: .long, help: "E.164, e.g. +15555550100.") var phone: String?
        @Flag(name: .customLong("email-verified")) var emailVerified = false
        @Flag(name: .long) var disabled = false

        func run() async throws {
            let user = NewUser(
                uid: uid, email: email, emailVerified: emailVerified ? true : nil, password: try UserPrinting.password(password, file: passwordFile),
                displayName: displayName, photoURL: photoURL, phoneNumber: phone, disabled: disabled ? true : nil)
            let created = try await connection.withAdmin { admin in try await admin.createUser(user) }
            print(created.uid)
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update", abstract: "Change a user's e-mail, password, names, phone or verified flag.",
            discussion: "An empty value (--display-name '') removes the display name, photo URL or phone number.")
        @OptionGroup var connection: TenantAdminConnectionOptions
        @Argument(help: "The uid.") var uid: String
        @Option(name: .long) var email: String?
        @Option(name: .long, help: "Prefer --password-file: a flag shows in the process list.") var password: String?
        @Option(name: .customLong("password-file"), help: "A file whose first line is the password.") var passwordFile: String?
        @Option(name: .customLong("display-name")) var displayName: String?
        @Option(name: .customLong("photo-url")) var photoURL: String?
        @Option(name: .long) var phone: String?
        @Option(name: .customLong("email-verified"), help: "true or false.") var emailVerified: Bool?

        func run() async throws {
            func change(_ value: String?) -> FieldChange<String>? { value.map { $0.isEmpty ? .remove : .set($0) } }
            let update = UserUpdate(
                email: email, emailVerified: emailVerified, password: try UserPrinting.password(password, file: passwordFile),
                displayName: change(displayName), photoURL: change(photoURL), phoneNumber: change(phone))
            let uid = self.uid
            let user = try await connection.withAdmin { admin in try await admin.updateUser(uid: uid, update) }
            print(UserPrinting.details(user))
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "disable", abstract: "Disable users: every sign-in, refresh and ID-token call of theirs answers USER_DISABLED.")
        @OptionGroup var connection: TenantAdminConnectionOptions
        @Argument(help: "The uids.") var uids: [String]

        func run() async throws { try await UserPrinting.setDisabled(uids, true, connection) }
    }

    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "enable", abstract: "Enable disabled users again.")
        @OptionGroup var connection: TenantAdminConnectionOptions
        @Argument(help: "The uids.") var uids: [String]

        func run() async throws { try await UserPrinting.setDisabled(uids, false, connection) }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete users, with their links and sessions.")
        @OptionGroup var connection: TenantAdminConnectionOptions
        @Argument(help: "The uids.") var uids: [String]

        func run() async throws {
            let uids = self.uids
            try await connection.withAdmin { admin in
                for uid in uids {
                    try await admin.deleteUser(uid: uid)
                    print("deleted \(uid)")
                }
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke", abstract: "End a user's sessions: refresh tokens and ID tokens of earlier sign-ins stop working.")
        @OptionGroup var connection: TenantAdminConnectionOptions
        @Argument(help: "The uid.") var uid: String

        func run() async throws {
            let uid = self.uid
            try await connection.withAdmin { admin in try await admin.revokeRefreshTokens(uid: uid) }
            print("revoked the sessions of \(uid)")
        }
    }

    struct SetClaims: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-claims", abstract: "Set a user's custom claims (a JSON object of at most 1000 bytes; {} removes them).",
            discussion: "They reach the user's ID tokens at the next refresh.")
        @OptionGroup var connection: TenantAdminConnectionOptions
        @Argument(help: "The uid.") var uid: String
        @Argument(help: #"The claims, e.g. '{"admin":true}'."#) var claims: String

        func run() async throws {
            guard case .object(let object)? = try? JSONDecoder().decode(ClaimValue.self, from: Data(claims.utf8)) else {
                FileHandle.standardError.write(Data("hearth: the claims must be a JSON object\n".utf8))
                throw ExitCode(2)
            }
            let uid = self.uid
            try await connection.withAdmin { admin in try await admin.setCustomUserClaims(uid: uid, claims: object.isEmpty ? nil : object) }
            print(object.isEmpty ? "removed the custom claims of \(uid)" : "set the custom claims of \(uid)")
        }
    }
}

extension UsersCommand {
    /// `hearth users mfa remove UID --enrollment ID | --all`.
    struct SecondFactors: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mfa", abstract: "Administer users' second factors (`hearth users get` lists them).", subcommands: [Remove.self])

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "remove", abstract: "Remove second factors of a user: the ones named, or all (and the recovery codes).",
                discussion: "For a user who lost a phone or an authenticator: the next sign-in needs the first factor only.")
            @OptionGroup var connection: TenantAdminConnectionOptions
            @Argument(help: "The uid.") var uid: String
            @Option(name: .customLong("enrollment"), help: "A factor's enrolment id, as `hearth users get` shows it (repeatable).")
            var enrollments: [String] = []
            @Flag(name: .long, help: "Remove every second factor.") var all = false

            func validate() throws {
                guard all != !enrollments.isEmpty else { throw ValidationError("give --enrollment ID or --all") }
            }

            func run() async throws {
                let uid = self.uid
                let named = Set(enrollments)
                let all = self.all
                let (removed, left) = try await connection.withAdmin { admin in
                    let factors = try await admin.user(uid: uid).multiFactor?.enrolledFactors ?? []
                    if let unknown = named.subtracting(factors.map(\.uid)).sorted().first {
                        throw HearthAdminError(.multiFactorInfoNotFound, "\(uid) has no second factor \(unknown).")
                    }
                    let kept = all ? [] : factors.filter { !named.contains($0.uid) }
                    let update = UserUpdate(multiFactor: MultiFactorUpdate(enrolledFactors: kept.map(MultiFactorInfoRequest.init)))
                    let after = try await admin.updateUser(uid: uid, update)
                    return (factors.count - kept.count, after.multiFactor?.enrolledFactors.count ?? 0)
                }
                print("removed \(removed) second factor(s) of \(uid); \(left) left")
            }
        }
    }
}

/// How the commands print users and read passwords.
enum UserPrinting {
    /// One line of `users list`: uid, e-mail, and what sets the user apart.
    static func line(_ user: UserRecord) -> String {
        var flags: [String] = []
        if user.disabled { flags.append("disabled") }
        if user.emailVerified { flags.append("verified") }
        if !user.customClaims.isEmpty { flags.append("claims") }
        if user.multiFactor != nil { flags.append("mfa") }
        flags += user.providers.map(\.providerID).filter { $0 != "password" }
        return [user.uid, user.email ?? "-", flags.joined(separator: ",")].joined(separator: "\t")
    }

    static func details(_ user: UserRecord) -> String {
        func time(_ date: Date?) -> String { date.map { ISO8601DateFormatter().string(from: $0) } ?? "-" }
        var lines = [
            "uid:            \(user.uid)",
            "email:          \(user.email ?? "-")\(user.email != nil && user.emailVerified ? " (verified)" : "")",
            "display name:   \(user.displayName ?? "-")",
            "photo URL:      \(user.photoURL ?? "-")",
            "phone:          \(user.phoneNumber ?? "-")",
            "disabled:       \(user.disabled)",
            "providers:      \(user.providers.map { "\($0.providerID)\($0.uid.map { " (\($0))" } ?? "")" }.joined(separator: ", "))",
            "created:        \(time(user.creationTime))",
            "last sign-in:   \(time(user.lastSignInTime))",
            "sessions since: \(time(user.tokensValidAfterTime))",
        ]
        if !user.customClaims.isEmpty, let data = try? JSONEncoder().encode(ClaimValue.object(user.customClaims)) {
            lines.append("custom claims:  \(String(decoding: data, as: UTF8.self))")
        }
        let factors = user.multiFactor?.enrolledFactors ?? []
        lines.append("second factors: \(factors.isEmpty ? "-" : String(factors.count))")
        for factor in factors {
            // The number masked as a sign-in shows it: the whole of it is personal data a terminal need not show.
            let number = factor.phoneNumber.map(masked) ?? "-"
            lines.append("  \(factor.uid)  \(factor.factorID)  \(factor.displayName ?? "-")  \(number)  \(time(factor.enrollmentTime))")
        }
        return lines.joined(separator: "\n")
    }

    /// `+*******0100`: all but the last four digits hidden.
    static func masked(_ number: String) -> String {
        let digits = number.dropFirst()
        guard digits.count > 4 else { return number }
        return "+" + String(repeating: "*", count: digits.count - 4) + digits.suffix(4)
    }

    /// `--password` or the first line of `--password-file`.
    static func password(_ flag: String?, file: String?) throws -> String? {
        guard let file else { return flag }
        guard flag == nil else { throw ValidationError("give --password or --password-file, not both") }
        guard let data = FileManager.default.contents(atPath: file) else { throw ValidationError("--password-file: cannot read \(file)") }
        return String(decoding: data, as: UTF8.self).split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
    }

    static func setDisabled(_ uids: [String], _ disabled: Bool, _ connection: TenantAdminConnectionOptions) async throws {
        try await connection.withAdmin { admin in
            for uid in uids {
                _ = try await admin.updateUser(uid: uid, UserUpdate(disabled: disabled))
                print("\(disabled ? "disabled" : "enabled") \(uid)")
            }
        }
    }
}
