#if canImport(Security)
import Foundation
import Security

/// A store in the Keychain: one generic-password item per key, accessible after the first unlock on this
/// device only (as FirebaseAuth stores its user).
///
/// Items go to the data-protection keychain. A macOS program without the keychain entitlement (a command-line
/// tool, `swift test`) cannot use it (`errSecMissingEntitlement`); the store then uses the login keychain.
public struct KeychainSignedInUserStore: SignedInUserStore {
    /// The item's service (`kSecAttrService`).
    public let service: String

    /// - Parameter service: e.g. `"hearth_auth_<app id>"`.
    public init(service: String) {
        self.service = service
    }

    private func query(_ key: String, dataProtection: Bool) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: key,
        ]
        if dataProtection { query[kSecUseDataProtectionKeychain as String] = true }
        return query
    }

    /// Runs `body` against the data-protection keychain, and against the login keychain when the program lacks
    /// the entitlement for the first.
    private func withKeychain<T>(_ body: (Bool) throws -> (OSStatus, T)) throws -> T {
        var (status, value) = try body(true)
        if status == errSecMissingEntitlement { (status, value) = try body(false) }
        guard status == errSecSuccess else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
        return value
    }

    public func data(forKey key: String) throws -> Data? {
        try withKeychain { dataProtection -> (OSStatus, Data?) in
            var query = self.query(key, dataProtection: dataProtection)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return (errSecSuccess, nil) }
            return (status, result as? Data)
        }
    }

    public func setData(_ data: Data, forKey key: String) throws {
        try withKeychain { dataProtection -> (OSStatus, Void) in
            let update: [String: Any] = [kSecValueData as String: data]
            var status = SecItemUpdate(self.query(key, dataProtection: dataProtection) as CFDictionary, update as CFDictionary)
            if status == errSecItemNotFound {
                var add = self.query(key, dataProtection: dataProtection)
                add[kSecValueData as String] = data
                add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                status = SecItemAdd(add as CFDictionary, nil)
            }
            return (status, ())
        }
    }

    public func removeData(forKey key: String) throws {
        try withKeychain { dataProtection -> (OSStatus, Void) in
            let status = SecItemDelete(self.query(key, dataProtection: dataProtection) as CFDictionary)
            return (status == errSecItemNotFound ? errSecSuccess : status, ())
        }
    }
}
#endif
