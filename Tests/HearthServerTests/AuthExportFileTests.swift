import Foundation
import HearthCore
import HearthServer
import HearthWire
import Testing

/// The Firebase CLI's export files: written from `accounts:batchGet`, read back, imported into another server
/// with the password hashes intact.
@Suite("Firebase CLI export files")
struct AuthExportFileTests {
    @Test("a Hearth export (JSON and CSV) imports into another Hearth as STANDARD_SCRYPT, and the old passwords sign in")
    func roundTrip() async throws {
        let taken = LockedBox<(users: [ExportedUser], options: PasswordHashImport)?>(nil)
        try await withHearth { hearth, client async throws in
            let admin = AdminClient(client)
            _ = try await client.signUp(email: "ada@example.com", password: "analytical")
            _ = try await admin.post(
                "/accounts",
                #"{"localId":"b-1","email":"bob@example.com","password":"builder-1","displayName":"Bob, the \"Builder\""}"#)
            // Linked before it is disabled: an identity linked to a disabled account is USER_DISABLED, as at Firebase.
            let linked = try await admin.post(
                "/accounts:update",
                #"{"localId":"b-1","customAttributes":"{\"role\":\"a,b\"}","linkProviderUserInfo":{"providerId":"github.com","rawId":"gh-7","email":"bob@github.example"}}"#
            )
            #expect(linked.status == .ok, "\(linked.text)")
            #expect(try await admin.post("/accounts:update", #"{"localId":"b-1","disableUser":true}"#).status == .ok)
            let page = try await admin.get("/accounts:batchGet?maxResults=100").decode(BatchGetResponse.self)
            let exported = (page.users ?? []).map(ExportedUser.init)
            #expect(exported.count == 2)
            #expect(exported.allSatisfy { $0.passwordHash != nil && $0.salt != nil })
            // In standard base64, which `firebase auth:import` checks for.
            #expect(exported.allSatisfy { !"\($0.passwordHash ?? "")\($0.salt ?? "")".contains(where: { $0 == "-" || $0 == "_" }) })
            // Lookups keep redacting.
            let lookup = try await admin.post("/accounts:lookup", #"{"localId":["b-1"]}"#).decode(LookupResponse.self)
            #expect(lookup.users?.first?.passwordHash == "UkVEQUNURUQ=" && lookup.users?.first?.salt == nil)
            taken.withLock { $0 = (exported, hearth.services.passwords.exportOptions) }
        }
        let (exported, options) = try #require(taken.withLock { $0 })
        let json = try JSONEncoder().encode(AuthExportFile(users: exported))
        let fromJSON = try JSONDecoder().decode(AuthExportFile.self, from: json)
        let fromCSV = try AuthExportFile.csv(AuthExportFile(users: exported).csv())
        #expect(fromJSON.users == exported)
        #expect(fromCSV.users == exported)

        for file in [fromJSON, fromCSV] {
            try await withHearth { _, client async throws in
                let admin = AdminClient(client)
                var request = BatchCreateRequest(users: file.users.map(\.userInfo), hashAlgorithm: options.algorithm.rawValue)
                request.cpuMemCost = options.cpuMemCost.map { WireInt32(Int32($0)) }
                request.blockSize = options.blockSize.map { WireInt32(Int32($0)) }
                request.parallelization = options.parallelization.map { WireInt32(Int32($0)) }
                request.dkLen = options.dkLen.map { WireInt32(Int32($0)) }
                let body = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
                let imported = try await admin.post("/accounts:batchCreate", body)
                #expect(imported.status == .ok && imported["error"] == nil, "\(imported.text)")
                let ada = try await client.post(
                    "/v1/accounts:signInWithPassword", ["email": .string("ada@example.com"), "password": .string("analytical")])
                #expect(ada.status == .ok, "\(ada.text)")
                let bob = try #require(try await admin.post("/accounts:lookup", #"{"localId":["b-1"]}"#).decode(LookupResponse.self).users?.first)
                #expect(bob.displayName == #"Bob, the "Builder""# && bob.disabled == true && bob.customAttributes == #"{"role":"a,b"}"#)
                #expect(bob.providerUserInfo?.contains { $0.providerId == "github.com" && $0.rawId == "gh-7" } == true)
            }
        }
    }

    @Test("CSV: quoted fields, a trailing comma, CRLF, empty lines; a bad line is named")
    func csvReading() throws {
        let text =
            "u1,a@example.com,true,aGFzaA==,c2FsdA==,\"Doe, Jane\",,g-1,jane@gmail.com,Jane,,,,,,,,,,,,,,1500000000000,1500000001000,+15555550100,false,\"{\"\"admin\"\":true}\",\r\n"
            + "\n" + "u2,,false,,,,,,,,,,,,,,,,,,,,,,,,,,\n"
        let file = try AuthExportFile.csv(text)
        #expect(file.users.count == 2)
        let first = try #require(file.users.first)
        #expect(first.displayName == "Doe, Jane" && first.customAttributes == #"{"admin":true}"#)
        #expect(first.providerUserInfo == [ExportedProvider(providerId: "google.com", rawId: "g-1", email: "jane@gmail.com", displayName: "Jane")])
        #expect(first.createdAt == 1_500_000_000_000 && first.lastSignedInAt == 1_500_000_001_000 && first.phoneNumber == "+15555550100")
        #expect(first.emailVerified == true && first.disabled == false)
        #expect(file.users[1].localId == "u2" && file.users[1].email == nil)

        #expect(throws: AuthExportFile.CSVError(line: 2, problem: "column 3 is neither true nor false")) {
            try AuthExportFile.csv("u1,,true\nu2,,maybe\n")
        }
        #expect(throws: AuthExportFile.CSVError(line: 1, problem: "a quoted field never ends")) { try AuthExportFile.csv("u1,\"open") }
        #expect(throws: AuthExportFile.CSVError(line: 1, problem: "no uid in column 1")) { try AuthExportFile.csv(",a@example.com\n") }
    }
}
