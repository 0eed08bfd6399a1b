import Crypto
import CryptoExtras
import Foundation
import HearthCore

/// The public half of a service-account key, as Hearth keeps it: the private half exists only in the
/// service-account file ``ServiceAccountKeys/create(name:projectID:baseURL:now:)`` hands out.
public struct ServiceAccountKey: Sendable, Codable, Equatable {
    /// `private_key_id` in the file and `kid` of the JWTs the key signs: 40 hex digits.
    public let keyID: String
    /// `client_email`: `iss` (and `sub`) of the JWTs the key signs.
    public let clientEmail: String
    /// `client_id`: 21 digits, as Google's.
    public let clientID: String
    public let publicKeyPEM: String
    /// `token_uri` of the file: an assertion's `aud` may name it.
    public let tokenURI: String
    public let createdAt: Date
    /// The one tenant the key administers (`hearth admin create-key --tenant`); `nil`: the whole project.
    public var tenantID: String?

    /// The project the key was made for: the one its ``clientEmail`` names (`NAME@PROJECT.iam.hearth.local`). A key is
    /// worth nothing to a server of another project, even on the same database.
    public var projectID: String? {
        guard let at = clientEmail.lastIndex(of: "@"), clientEmail.hasSuffix(ServiceAccountKeys.emailDomainSuffix) else { return nil }
        let project = clientEmail[clientEmail.index(after: at)...].dropLast(ServiceAccountKeys.emailDomainSuffix.count)
        return project.isEmpty ? nil : String(project)
    }

    /// The RSA public key; `nil` for a record that does not hold one.
    public var publicKey: _RSA.Signing.PublicKey? { try? _RSA.Signing.PublicKey(pemRepresentation: publicKeyPEM) }
}

/// Service-account keys in the settings store (one setting per key, named ``settingPrefix`` + key id), so
/// every replica sharing the database sees a key as soon as it is made and stops accepting it once deleted.
public struct ServiceAccountKeys: Sendable {
    public static let settingPrefix = "service-account-key:"
    /// Where Hearth's token endpoint is under the server's public base URL.
    public static let tokenPath = "/oauth2/v4/token"

    let store: any SettingStore

    public init(store: any SettingStore) {
        self.store = store
    }

    /// What ``create(name:projectID:baseURL:now:)`` made: the stored record and the service-account file.
    public struct Created: Sendable {
        public let key: ServiceAccountKey
        /// The JSON file Google's auth libraries read. Holds the private key: write it with mode 0600.
        public let file: Data
    }

    /// Whether `name` may name a service account: 6 to 30 lower-case letters, digits and dashes, starting with
    /// a letter and not ending with a dash (Google's rule for service-account ids).
    public static func isValidName(_ name: String) -> Bool {
        name.range(of: #"^[a-z][a-z0-9-]{4,28}[a-z0-9]$"#, options: .regularExpression) != nil
    }

    /// `NAME@PROJECT.iam.hearth.local`: shaped like Google's `…@PROJECT.iam.gserviceaccount.com`, in a domain
    /// that is visibly Hearth's and never resolves.
    public static func clientEmail(name: String, projectID: String) -> String {
        "\(name)@\(projectID)\(emailDomainSuffix)"
    }

    /// What follows the project in a service account's e-mail.
    static let emailDomainSuffix = ".iam.hearth.local"

    /// Makes an RSA-2048 key pair, stores its public half and returns the service-account file.
    /// - Parameter baseURL: the server's public base URL, without a trailing slash (`https://auth.example.com`).
    /// - Parameter tenantID: the one tenant the key may administer; `nil`: the whole project.
    public func create(name: String, projectID: String, tenantID: String? = nil, baseURL: String, now: Date) async throws -> Created {
        let privateKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let keyID = HexDigits.lowercase(Self.randomBytes(20))
        let clientID = String(Int.random(in: 1...9)) + (0..<20).map { _ in String(Int.random(in: 0...9)) }.joined()
        let clientEmail = Self.clientEmail(name: name, projectID: projectID)
        let tokenURI = baseURL + Self.tokenPath
        var key = ServiceAccountKey(
            keyID: keyID, clientEmail: clientEmail, clientID: clientID, publicKeyPEM: privateKey.publicKey.pemRepresentation,
            tokenURI: tokenURI, createdAt: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)))
        key.tenantID = tenantID
        let record = try Self.encoder.encode(key)
        guard try await store.insertSetting(Self.settingPrefix + keyID, value: String(decoding: record, as: UTF8.self)) else {
            throw HearthError(.internalError, reason: "a service-account key id was drawn twice")
        }
        let encodedEmail =
            clientEmail.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._"))) ?? clientEmail
        let file: [String: String] = [
            "type": "service_account",
            "project_id": projectID,
            "private_key_id": keyID,
            "private_key": privateKey.pkcs8PEMRepresentation + "\n",
            "client_email": clientEmail,
            "client_id": clientID,
            "auth_uri": baseURL + "/oauth2/auth",
            "token_uri": tokenURI,
            "auth_provider_x509_cert_url": baseURL + "/oauth2/v1/certs",
            "client_x509_cert_url": baseURL + "/robot/v1/metadata/x509/" + encodedEmail,
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Created(key: key, file: try encoder.encode(file) + Data("\n".utf8))
    }

    /// Every stored key, oldest first.
    public func all() async throws -> [ServiceAccountKey] {
        try await store.settings(withPrefix: Self.settingPrefix).values.compactMap(Self.decode)
            .sorted { ($0.createdAt, $0.keyID) < ($1.createdAt, $1.keyID) }
    }

    /// The key with id `keyID`, if it is stored.
    public func key(id keyID: String) async throws -> ServiceAccountKey? {
        guard Self.isKeyID(keyID) else { return nil }
        return try await store.setting(Self.settingPrefix + keyID).flatMap(Self.decode)
    }

    /// Deletes the key with id `keyID`; returns whether there was one.
    public func delete(id keyID: String) async throws -> Bool {
        guard try await key(id: keyID) != nil else { return false }
        try await store.setSetting(Self.settingPrefix + keyID, to: nil)
        return true
    }

    /// The signers of custom tokens these keys make: each key for its own service account only.
    public func customTokenSigners() async throws -> [CustomTokenVerifier.Signer] {
        try await all().compactMap { try? CustomTokenVerifier.Signer(publicKeyPEM: $0.publicKeyPEM, serviceAccount: $0.clientEmail) }
    }

    /// 40 lower-case hex digits.
    static func isKeyID(_ text: String) -> Bool {
        text.utf8.count == 40 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }()

    static func decode(_ text: String) -> ServiceAccountKey? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try? decoder.decode(ServiceAccountKey.self, from: Data(text.utf8))
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
