import ArgumentParser
import Foundation
import HearthAdmin

/// `hearth tenants list|get|create|update|delete`: Identity Platform's tenants, through the admin API of a running
/// server or of the database directly (``AdminConnectionOptions``), as `hearth users` works. `hearth users --tenant ID`
/// then administers one tenant's users.
struct TenantsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tenants",
        abstract: "Administer tenants: user pools of their own inside the project.",
        discussion: """
            Connects as `hearth users` does: without --server the configured database (on SQLite stop the server first), \
            with --server URL that server's admin API. A new tenant has every sign-in off until one is turned on. \
            `hearth users … --tenant ID` administers a tenant's users.
            """,
        subcommands: [List.self, Get.self, Create.self, Update.self, Delete.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List every tenant, in id order: id, display name, the sign-ins turned on.")
        @OptionGroup var connection: AdminConnectionOptions
        @Option(name: .long, help: "Tenants per admin API call (1-1000).") var pageSize = 1_000

        func run() async throws {
            let pageSize = self.pageSize
            let count = try await connection.withAdmin { admin in
                try await printPages(line: TenantPrinting.line) { token in
                    let page = try await admin.tenantManager.listTenants(pageSize: pageSize, pageToken: token)
                    return (page.tenants, page.nextPageToken)
                }
            }
            FileHandle.standardError.write(Data("\(count) tenant(s)\n".utf8))
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "get", abstract: "Show one tenant.")
        @OptionGroup var connection: AdminConnectionOptions
        @Argument(help: "The tenant id.") var id: String

        func run() async throws {
            let id = self.id
            print(TenantPrinting.details(try await connection.withAdmin { admin in try await admin.tenantManager.tenant(id: id) }))
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Create a tenant; prints its id.")
        @OptionGroup var connection: AdminConnectionOptions
        @Option(name: .customLong("display-name"), help: "4 to 20 characters: a letter first, then letters, digits and hyphens.")
        var displayName: String
        @Flag(name: .customLong("allow-password-sign-up"), help: "Turn e-mail and password sign-up and sign-in on.") var password = false
        @Flag(name: .customLong("enable-email-link-sign-in"), help: "Turn e-mail link sign-in on.") var emailLink = false
        @Flag(name: .customLong("enable-anonymous-user"), help: "Turn anonymous sign-in on.") var anonymous = false
        @Flag(name: .customLong("disable-auth"), help: "Create it with every sign-in stopped.") var disableAuth = false

        func run() async throws {
            let settings = TenantSettings(
                displayName: displayName, allowPasswordSignUp: password ? true : nil, enableEmailLinkSignIn: emailLink ? true : nil,
                enableAnonymousUser: anonymous ? true : nil, disableAuth: disableAuth ? true : nil)
            let created = try await connection.withAdmin { admin in try await admin.tenantManager.createTenant(settings) }
            print(created.tenantID)
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update", abstract: "Change a tenant's display name or turn its sign-ins on and off (true or false).")
        @OptionGroup var connection: AdminConnectionOptions
        @Argument(help: "The tenant id.") var id: String
        @Option(name: .customLong("display-name")) var displayName: String?
        @Option(name: .customLong("allow-password-sign-up"), help: "true or false.") var password: Bool?
        @Option(name: .customLong("enable-email-link-sign-in"), help: "true or false.") var emailLink: Bool?
        @Option(name: .customLong("enable-anonymous-user"), help: "true or false.") var anonymous: Bool?
        @Option(name: .customLong("disable-auth"), help: "true stops every sign-in of the tenant's users; false lets them in again.")
        var disableAuth: Bool?

        func validate() throws {
            guard [displayName == nil, password == nil, emailLink == nil, anonymous == nil, disableAuth == nil].contains(false) else {
                throw ValidationError(
                    "give at least one of --display-name, --allow-password-sign-up, --enable-email-link-sign-in, --enable-anonymous-user, "
                        + "--disable-auth")
            }
        }

        func run() async throws {
            let id = self.id
            let settings = TenantSettings(
                displayName: displayName, allowPasswordSignUp: password, enableEmailLinkSignIn: emailLink, enableAnonymousUser: anonymous,
                disableAuth: disableAuth)
            let updated = try await connection.withAdmin { admin in try await admin.tenantManager.updateTenant(id: id, settings) }
            print(TenantPrinting.details(updated))
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete tenants with their users, sessions and settings.")
        @OptionGroup var connection: AdminConnectionOptions
        @Argument(help: "The tenant ids.") var ids: [String]

        func run() async throws {
            let ids = self.ids
            try await connection.withAdmin { admin in
                for id in ids {
                    try await admin.tenantManager.deleteTenant(id: id)
                    print("deleted \(id)")
                }
            }
        }
    }
}

/// How `hearth tenants` prints tenants.
enum TenantPrinting {
    /// The sign-ins a tenant has on (`password`, `email-link`, `anonymous`), and `disabled` when it is.
    static func flags(_ tenant: Tenant) -> [String] {
        var flags: [String] = []
        if tenant.disableAuth { flags.append("disabled") }
        if tenant.allowPasswordSignUp { flags.append("password") }
        if tenant.enableEmailLinkSignIn { flags.append("email-link") }
        if tenant.enableAnonymousUser { flags.append("anonymous") }
        return flags
    }

    /// One line of `tenants list`: id, display name, flags.
    static func line(_ tenant: Tenant) -> String {
        [tenant.tenantID, tenant.displayName, flags(tenant).joined(separator: ",")].joined(separator: "\t")
    }

    static func details(_ tenant: Tenant) -> String {
        [
            "id:                  \(tenant.tenantID)",
            "display name:        \(tenant.displayName)",
            "password sign-up:    \(tenant.allowPasswordSignUp)",
            "e-mail link sign-in: \(tenant.enableEmailLinkSignIn)",
            "anonymous users:     \(tenant.enableAnonymousUser)",
            "auth disabled:       \(tenant.disableAuth)",
            "test phone numbers:  \(tenant.testPhoneNumbers.isEmpty ? "-" : tenant.testPhoneNumbers.keys.sorted().joined(separator: ", "))",
        ].joined(separator: "\n")
    }
}
