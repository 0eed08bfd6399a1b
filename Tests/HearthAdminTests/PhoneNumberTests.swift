import Foundation
import HearthAdmin
import HearthTesting
import HearthWire
import Testing

/// Phone numbers through HearthAdmin against a live server: created, found, replaced and removed (the `phone`
/// provider with them), imported and exported, and the Admin SDKs' error codes.
@Suite("HearthAdmin: phone numbers")
struct PhoneNumberTests {
    /// The provider ids of a user, sorted.
    static func providers(_ user: UserRecord) -> [String] { user.providers.map(\.providerID).sorted() }

    @Test("create with a phone number, get by phone number, update it, remove it: the phone provider follows")
    func lifecycle() async throws {
        try await withLiveHearth { live in
            let admin = try makeAdmin(live)
            let created = try await admin.createUser(NewUser(uid: "grace", email: "grace@example.com", phoneNumber: "+15555550101"))
            #expect(created.phoneNumber == "+15555550101")
            #expect(Self.providers(created).contains("phone"))
            let phone = try #require(created.providers.first { $0.providerID == "phone" })
            #expect(phone.uid == "+15555550101" && phone.phoneNumber == "+15555550101")

            let found = try await admin.user(phoneNumber: "+15555550101")
            #expect(found.uid == "grace" && found.email == "grace@example.com")
            #expect(await adminError { _ = try await admin.user(phoneNumber: "+15555550199") } == .userNotFound)

            let replaced = try await admin.updateUser(uid: "grace", UserUpdate(phoneNumber: .set("+15555550102")))
            #expect(replaced.phoneNumber == "+15555550102")
            #expect(replaced.providers.first { $0.providerID == "phone" }?.uid == "+15555550102")
            #expect(try await admin.user(phoneNumber: "+15555550102").uid == "grace")
            #expect(await adminError { _ = try await admin.user(phoneNumber: "+15555550101") } == .userNotFound)

            let removed = try await admin.updateUser(uid: "grace", UserUpdate(phoneNumber: .remove))
            #expect(removed.phoneNumber == nil)
            #expect(!Self.providers(removed).contains("phone"))
            #expect(try await admin.user(uid: "grace").providers.allSatisfy { $0.providerID != "phone" })
            #expect(await adminError { _ = try await admin.user(phoneNumber: "+15555550102") } == .userNotFound)
            // The number is free again.
            #expect(try await admin.createUser(NewUser(uid: "alan", phoneNumber: "+15555550102")).phoneNumber == "+15555550102")
        }
    }

    @Test("a number another user has: auth/phone-number-already-exists; a malformed one: auth/invalid-phone-number")
    func errors() async throws {
        try await withLiveHearth { live in
            let admin = try makeAdmin(live)
            try await admin.createUser(NewUser(uid: "owner", phoneNumber: "+15555550103"))
            try await admin.createUser(NewUser(uid: "other", phoneNumber: "+15555550104"))

            let taken = try #require(await thrown { try await admin.createUser(NewUser(phoneNumber: "+15555550103")) })
            #expect(taken.code.rawValue == "auth/phone-number-already-exists" && taken.serverMessage == "PHONE_NUMBER_EXISTS")
            let takenByUpdate = try #require(await thrown { try await admin.updateUser(uid: "other", UserUpdate(phoneNumber: .set("+15555550103"))) })
            #expect(takenByUpdate.code.rawValue == "auth/phone-number-already-exists")
            #expect(try await admin.user(uid: "other").phoneNumber == "+15555550104")
            // The owner setting its own number again is no conflict.
            #expect(try await admin.updateUser(uid: "owner", UserUpdate(phoneNumber: .set("+15555550103"))).phoneNumber == "+15555550103")

            for malformed in ["555-0100", "15555550100", "+1 555 555 0100", "+1555555\n0100", "+0123456", "+1", "+1234567890123456", "+１５５５"] {
                let created = try #require(await thrown { try await admin.createUser(NewUser(phoneNumber: malformed)) }, "\(malformed)")
                #expect(created.code.rawValue == "auth/invalid-phone-number", "\(malformed)")
                #expect(created.serverMessage == "INVALID_PHONE_NUMBER : Invalid format.", "\(malformed)")
                let updated = try #require(await thrown { try await admin.updateUser(uid: "other", UserUpdate(phoneNumber: .set(malformed))) })
                #expect(updated.code.rawValue == "auth/invalid-phone-number", "\(malformed)")
                // Refused before any call.
                let looked = try #require(await thrown { _ = try await admin.user(phoneNumber: malformed) })
                #expect(looked.code.rawValue == "auth/invalid-phone-number" && looked.serverMessage == nil, "\(malformed)")
                #expect(looked.message == "The phone number must be a non-empty E.164 standard compliant identifier string.")
            }
            #expect(await adminError { _ = try await admin.user(phoneNumber: "") } == .invalidPhoneNumber)
            #expect(try await admin.user(uid: "other").phoneNumber == "+15555550104")
        }
    }

    @Test("importUsers with phone numbers, then exportUsers and listUsers show them; a taken or malformed number fails by index")
    func importAndExport() async throws {
        try await withLiveHearth { live in
            let admin = try makeAdmin(live)
            try await admin.createUser(NewUser(uid: "first", phoneNumber: "+15555550105"))
            let result = try await admin.importUsers([
                ImportedUser(uid: "imported-1", email: "imported@example.com", phoneNumber: "+15555550106"),
                ImportedUser(uid: "imported-2", phoneNumber: "+15555550105"),
                ImportedUser(uid: "imported-3", phoneNumber: "555-0107"),
                ImportedUser(uid: "imported-4", phoneNumber: "+15555550108"),
            ])
            #expect(result.successCount == 2)
            #expect(result.errors.map(\.index) == [1, 2], "\(result.errors)")

            #expect(try await admin.user(phoneNumber: "+15555550106").uid == "imported-1")
            #expect(try await admin.user(uid: "imported-4").phoneNumber == "+15555550108")
            #expect(await adminError { _ = try await admin.user(uid: "imported-2") } == .userNotFound)

            let exported = try await admin.exportUsers()
            let numbers = Dictionary(uniqueKeysWithValues: exported.users.map { ($0.localId, $0.phoneNumber) })
            #expect(numbers == ["first": "+15555550105", "imported-1": "+15555550106", "imported-4": "+15555550108"])
            let listed = try await admin.listUsers()
            #expect(listed.users.first { $0.uid == "imported-1" }?.phoneNumber == "+15555550106")
        }
    }

    /// The HearthAdminError `body` throws, or nil.
    func thrown(_ body: () async throws -> Void) async -> HearthAdminError? {
        do {
            try await body()
            return nil
        } catch let error as HearthAdminError {
            return error
        } catch {
            Issue.record("not a HearthAdminError: \(error)")
            return nil
        }
    }
}
