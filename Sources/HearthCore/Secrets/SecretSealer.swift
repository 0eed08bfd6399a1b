import Crypto
import Foundation

/// Seals and opens secrets kept at rest with a ``KeyEncryptionKey`` (AES-256-GCM).
///
/// A sealed value is text: `hearth-sealed:v1:<key id>:<base64 of nonce, ciphertext and tag>`. The key id
/// tells which key sealed it, so a wrong key fails with ``SecretSealerError/Code/wrongKey``. The
/// authenticated data binds the value to a `context` (the row it belongs to, e.g. `signing-key/<kid>`):
/// a sealed value copied into another row does not open.
///
/// Text without the `hearth-sealed:` prefix is taken as stored in plain text by an earlier version and
/// returned as it is by ``open(_:context:)``; ``isSealed(_:)`` tells the two apart.
public struct SecretSealer: Sendable {
    public let key: KeyEncryptionKey

    public init(key: KeyEncryptionKey) {
        self.key = key
    }

    static let prefix = "hearth-sealed:"
    static let version = "v1"

    /// Settings whose values hold secrets, by name prefix: the identity providers' settings (client
    /// secrets, Apple's private key). Stores seal their values whole.
    public static let sealedSettingPrefixes = [IdentityProviderSetting.storagePrefix]

    /// Whether the setting `name` is kept sealed (see ``sealedSettingPrefixes``).
    public static func isSealedSetting(_ name: String) -> Bool {
        sealedSettingPrefixes.contains { name.hasPrefix($0) }
    }

    /// The context of a signing key's private key.
    public static func signingKeyContext(kid: String) -> String { "signing-key/\(kid)" }

    /// The context of a setting's value.
    public static func settingContext(name: String) -> String { "setting/\(name)" }

    /// The context of a queued mail's text body (`html` false) or HTML body (`html` true): the two bodies
    /// of one mail cannot stand in for each other either.
    public static func mailContext(id: String, html: Bool) -> String { "mail/\(id)/\(html ? "html" : "text")" }

    /// The context of a queued SMS's body.
    public static func smsContext(id: String) -> String { "sms/\(id)" }

    /// Whether `stored` is a sealed value (rather than plain text from an earlier version).
    public static func isSealed(_ stored: String) -> Bool { stored.hasPrefix(prefix) }

    /// The id of the key that sealed `stored`, or `nil` for plain text or an unreadable format.
    public static func keyID(of stored: String) -> String? {
        guard isSealed(stored) else { return nil }
        let parts = stored.dropFirst(prefix.count).split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        return parts.count == 3 ? String(parts[1]) : nil
    }

    /// `plaintext` sealed for `context`, with a fresh random nonce.
    public func seal(_ plaintext: String, context: String) throws -> String {
        let header = "\(Self.prefix)\(Self.version):\(key.id):"
        let box = try AES.GCM.seal(Data(plaintext.utf8), using: key.key, authenticating: Data((header + context).utf8))
        guard let combined = box.combined else {
            throw SecretSealerError(.malformedValue, "AES-GCM gave no combined form")
        }
        return header + combined.base64EncodedString()
    }

    /// The plaintext of `stored`, sealed for `context` by this key; plain text (no `hearth-sealed:`
    /// prefix) is returned as it is.
    public func open(_ stored: String, context: String) throws -> String {
        guard Self.isSealed(stored) else { return stored }
        let parts = stored.dropFirst(Self.prefix.count).split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == Self.version else {
            throw SecretSealerError(.malformedValue, "the value stored for \(context) is not in a sealed format this version reads")
        }
        guard parts[1] == key.id else {
            throw SecretSealerError(
                .wrongKey,
                "the value stored for \(context) was sealed with key-encryption key \(parts[1]), but the configured key is \(key.id): "
                    + "configure the key it was sealed with (secrets.keyFile or HEARTH_SECRETS_KEY)")
        }
        let header = "\(Self.prefix)\(Self.version):\(key.id):"
        guard let combined = Data(base64Encoded: String(parts[2])), let box = try? AES.GCM.SealedBox(combined: combined) else {
            throw SecretSealerError(.malformedValue, "the value stored for \(context) is not valid sealed data")
        }
        guard let opened = try? AES.GCM.open(box, using: key.key, authenticating: Data((header + context).utf8)),
            let text = String(data: opened, encoding: .utf8)
        else {
            throw SecretSealerError(
                .tampered, "the value stored for \(context) does not open with key-encryption key \(key.id): it was altered or moved")
        }
        return text
    }
}

extension Optional where Wrapped == SecretSealer {
    /// `stored` opened by the sealer; without one, plain text as it is, and a sealed value fails with
    /// ``SecretSealerError/Code/noKey``.
    public func open(_ stored: String, context: String) throws -> String {
        if let sealer = self { return try sealer.open(stored, context: context) }
        guard !SecretSealer.isSealed(stored) else {
            throw SecretSealerError(
                .noKey,
                "the value stored for \(context) is sealed (key-encryption key \(SecretSealer.keyID(of: stored) ?? "unknown")), "
                    + "but no key was given: set secrets.keyFile or HEARTH_SECRETS_KEY")
        }
        return stored
    }

    /// `plaintext` sealed by the sealer; without one, as it is.
    public func seal(_ plaintext: String, context: String) throws -> String {
        try self?.seal(plaintext, context: context) ?? plaintext
    }
}
