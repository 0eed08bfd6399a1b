import ArgumentParser
import Foundation
import HearthAdmin
import HearthWire

// `hearth users import FILE` and `hearth users export FILE`: the Firebase CLI's `auth:import` / `auth:export`
// files (JSON or CSV, see ``AuthExportFile``), 1000 users per admin API call, with a progress bar on standard
// error and a summary.

/// The file format: `--format`, else the file's extension.
enum TransferFormat: String, ExpressibleByArgument, CaseIterable {
    case json, csv

    static func of(_ path: String, _ format: TransferFormat?) throws -> TransferFormat {
        if let format { return format }
        if path.lowercased().hasSuffix(".csv") { return .csv }
        if path.lowercased().hasSuffix(".json") { return .json }
        throw ValidationError("say --format json or csv (the file name ends in neither)")
    }
}

/// A progress bar on standard error, redrawn in place: `[#####.....] 5000/10000`.
struct ProgressBar {
    let total: Int

    func show(_ done: Int) {
        let width = 30
        let filled = total == 0 ? width : min(width, done * width / total)
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total)".utf8))
        if done >= total { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}

extension UsersCommand {
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import", abstract: "Import users from a Firebase CLI export file (JSON or CSV), password hashes included.",
            discussion: """
                The hash options are the Firebase CLI's (auth:import): --hash-algo SCRYPT --hash-key KEY --salt-separator SEP \
                --rounds 8 --mem-cost 14 for a file exported from Firebase (the values are in the Firebase console, Authentication, \
                Users, "Password hash parameters"); the options `hearth users export` prints for a file exported from Hearth. \
                An imported user signs in with the old password and is rehashed to Hearth's scrypt then. Users that cannot \
                be imported are listed with the reason; the others are imported.
                """)
        @OptionGroup var connection: TenantAdminConnectionOptions
        @Argument(help: "The file.") var file: String
        @Option(name: .long, help: "json or csv (by default from the file name).") var format: TransferFormat?
        @Option(name: .customLong("hash-algo"), help: "SCRYPT, STANDARD_SCRYPT, BCRYPT, PBKDF_SHA1, PBKDF2_SHA256, HMAC_SHA512, … MD5.")
        var hashAlgorithm: String?
        @Option(name: .customLong("hash-key"), help: "The signer key (SCRYPT) or HMAC key, base64.") var hashKey: String?
        @Option(name: .customLong("salt-separator"), help: "SCRYPT's salt separator, base64.") var saltSeparator: String?
        @Option(name: .long) var rounds: Int?
        @Option(name: .customLong("mem-cost"), help: "SCRYPT's memory cost (1-14), or STANDARD_SCRYPT's N.") var memoryCost: Int?
        @Option(name: .long) var parallelization: Int?
        @Option(name: .customLong("block-size")) var blockSize: Int?
        @Option(name: .customLong("dk-len")) var derivedKeyLength: Int?
        @Option(name: .customLong("hash-input-order"), help: "SALT_FIRST or PASSWORD_FIRST.") var hashInputOrder: String?

        func run() async throws {
            // Read through once, a user at a time, so that a file that cannot be read is refused before anything is sent;
            // then again, a batch at a time (never the whole file as users in memory).
            let (data, format) = try openFile()
            var survey = try reader(data, format)
            while try next(&survey) != nil {}
            let total = survey.count
            let hash = try hashOptions()
            let order: String? =
                switch hashInputOrder?.uppercased() {
                case nil: nil
                case "SALT_FIRST": "SALT_AND_PASSWORD"
                case "PASSWORD_FIRST": "PASSWORD_AND_SALT"
                default: throw ValidationError("--hash-input-order: SALT_FIRST or PASSWORD_FIRST")
                }
            let failures = try await connection.withAdmin { admin in
                let progress = ProgressBar(total: total)
                var failures: [(uid: String, message: String)] = []
                var users = try reader(data, format)
                var done = 0
                progress.show(0)
                while true {
                    var batch: [ExportedUser] = []
                    while batch.count < 1_000, let user = try next(&users) { batch.append(user) }
                    guard !batch.isEmpty else { break }
                    let result = try await admin.importUsers(batch, hash: hash, passwordHashOrder: order)
                    failures += result.errors.map { (batch[$0.index].localId, $0.message) }
                    done += batch.count
                    progress.show(done)
                }
                return failures
            }
            for failure in failures { FileHandle.standardError.write(Data("  \(failure.uid): \(failure.message)\n".utf8)) }
            print("imported \(total - failures.count) of \(total) user(s)\(failures.isEmpty ? "" : "; \(failures.count) failed (listed above)")")
            if !failures.isEmpty { throw ExitCode(1) }
        }

        /// The file's bytes, mapped rather than read into memory (read whole when it cannot be mapped: a pipe), and its form.
        private func openFile() throws -> (Data, AuthExportFile.Format) {
            let format: AuthExportFile.Format = try TransferFormat.of(file, format) == .json ? .json : .csv
            guard
                let data = (try? Data(contentsOf: URL(fileURLWithPath: file), options: .alwaysMapped))
                    ?? (try? FileHandle(forReadingAtPath: file)?.readToEnd())
            else {
                throw ValidationError("cannot read \(file)")
            }
            return (data, format)
        }

        private func reader(_ data: Data, _ format: AuthExportFile.Format) throws -> AuthExportFile.UserReader {
            do {
                return try AuthExportFile.UserReader(data, format: format)
            } catch {
                throw ValidationError("\(file): \(error)")
            }
        }

        private func next(_ reader: inout AuthExportFile.UserReader) throws -> ExportedUser? {
            do {
                return try reader.next()
            } catch {
                throw ValidationError("\(file): \(error)")
            }
        }

        private func hashOptions() throws -> PasswordHashOptions? {
            guard let algorithm = hashAlgorithm?.uppercased() else { return nil }
            func bytes(_ text: String?, _ flag: String) throws -> Data? {
                guard let text else { return nil }
                guard let data = Data(base64Encoded: text) ?? Data(base64Encoded: text + String(repeating: "=", count: (4 - text.count % 4) % 4))
                else {
                    throw ValidationError("\(flag): not base64")
                }
                return data
            }
            return PasswordHashOptions(
                algorithm: algorithm, key: try bytes(hashKey, "--hash-key"), saltSeparator: try bytes(saltSeparator, "--salt-separator"),
                rounds: rounds, memoryCost: memoryCost, blockSize: blockSize, parallelization: parallelization,
                derivedKeyLength: derivedKeyLength)
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export", abstract: "Export every user to a Firebase CLI file (JSON or CSV), with password hashes.",
            discussion: """
                Hashes made by Hearth's scrypt are exported with their salts, and the summary prints the import options \
                that read them (STANDARD_SCRYPT), for `hearth users import` and `firebase auth:import`. A hash imported \
                from elsewhere and not yet redone at the user's sign-in is left out: that user keeps signing in here, and \
                elsewhere needs a password reset. The CSV format has columns for Google, Facebook, Twitter and GitHub only, \
                as the Firebase CLI's; the JSON format keeps every provider, and phone second factors as `mfaInfo` (TOTP \
                factors never: their secrets stay on the server, and their users enrol again). `firebase auth:import` \
                refuses `mfaInfo`: give it a file made with --without-second-factors.
                """)
        @OptionGroup var connection: TenantAdminConnectionOptions
        @Argument(help: "The file to write (replaced if it exists; mode 0600, it holds password hashes).") var file: String
        @Option(name: .long, help: "json or csv (by default from the file name).") var format: TransferFormat?
        @Flag(name: .customLong("without-second-factors"), help: "Leave the phone second factors (mfaInfo) out, for firebase auth:import.")
        var withoutSecondFactors = false

        func run() async throws {
            let format = try TransferFormat.of(file, format)
            let (exported, hash) = try await connection.withAdmin { admin in
                var users: [ExportedUser] = []
                var token: String?
                repeat {
                    let page = try await admin.exportUsers(pageSize: 1_000, pageToken: token)
                    users += page.users
                    token = page.nextPageToken
                    FileHandle.standardError.write(Data("\rread \(users.count) user(s)".utf8))
                } while token != nil
                FileHandle.standardError.write(Data("\n".utf8))
                return (users, try await admin.exportHashOptions())
            }
            var users = exported
            if withoutSecondFactors {
                for index in users.indices { users[index].mfaInfo = nil }
            }
            let data: Data
            switch format {
            case .json:
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                data = try encoder.encode(AuthExportFile(users: users))
            case .csv:
                data = Data(AuthExportFile(users: users).csv().utf8)
            }
            let previous = umask(0o077)
            defer { umask(previous) }
            guard FileManager.default.createFile(atPath: file, contents: data, attributes: [.posixPermissions: 0o600]) else {
                FileHandle.standardError.write(Data("hearth: cannot write \(file)\n".utf8))
                throw ExitCode(1)
            }
            let withHash = users.filter { $0.passwordHash != nil }.count
            print("exported \(users.count) user(s) to \(file) (\(format.rawValue)); \(withHash) with a password hash")
            print(
                "import with: --hash-algo \(hash.algorithm) --mem-cost \(hash.memoryCost ?? 0) --block-size \(hash.blockSize ?? 8) "
                    + "--parallelization \(hash.parallelization ?? 1) --dk-len \(hash.derivedKeyLength ?? 32)")
        }
    }
}
