import Foundation
import HearthCore
import HearthServer
import HearthWire
import Testing

/// An administrator's second factors: `mfaInfo` of an admin create and of an import, `mfa.enrollments` of an admin
/// update (the Admin SDKs' `multiFactor.enrolledFactors`), with Identity Toolkit's exact error strings.
@Suite("Admin API: second factors")
struct AdminSecondFactorsTests {
    static func factors(_ admin: AdminClient, _ uid: String) async throws -> [MFAEnrollment] {
        let found = try await admin.post("/accounts:lookup", #"{"localId":["\#(uid)"]}"#)
        return try found.decode(LookupResponse.self).users?.first?.mfaInfo ?? []
    }

    @Test("create with mfaInfo: phone factors, a number given twice kept once, ids made when absent; INVALID_MFA_PHONE_NUMBER")
    func create() async throws {
        try await withHearth { hearth, client async throws in
            let admin = AdminClient(client)
            let created = try await admin.post(
                "/accounts",
                #"{"localId":"ada","email":"ada@example.com","emailVerified":true,"mfaInfo":[{"phoneInfo":"+15555550100","displayName":"Work phone"},{"phoneInfo":"+15555550100","displayName":"again"},{"phoneInfo":"+15555550101","mfaEnrollmentId":"home-1","enrolledAt":"2017-09-22T01:49:58.000Z"}]}"#
            )
            #expect(created.status == .ok, "\(created.text)")
            let factors = try await Self.factors(admin, "ada")
            #expect(factors.map(\.phoneInfo) == ["+15555550100", "+15555550101"])
            #expect(factors[0].displayName == "Work phone" && factors[0].mfaEnrollmentId?.count == 28)
            #expect(factors[1].mfaEnrollmentId == "home-1" && factors[1].enrolledAt == "2017-09-22T01:49:58.000Z")
            #expect(factors.allSatisfy { $0.totpInfo == nil })
            let stored = try #require(try await hearth.services.store.user(uid: "ada"))
            #expect(stored.secondFactors.map(\.phoneNumber) == ["+15555550100", "+15555550101"])

            #expect(
                try await admin.post("/accounts", #"{"mfaInfo":[{"phoneInfo":"555-0100"}]}"#).errorMessage
                    == "INVALID_MFA_PHONE_NUMBER : Invalid format.")
            // Only phone factors: a TOTP factor is enrolled by its user.
            #expect(
                try await admin.post("/accounts", #"{"mfaInfo":[{"totpInfo":{}}]}"#).errorMessage == "INVALID_MFA_PHONE_NUMBER : Invalid format.")
            #expect(
                try await admin.post(
                    "/accounts",
                    #"{"mfaInfo":[{"phoneInfo":"+15555550102","mfaEnrollmentId":"x"},{"phoneInfo":"+15555550103","mfaEnrollmentId":"x"}]}"#
                )
                .errorMessage == "DUPLICATE_MFA_ENROLLMENT_ID")
            let six = (0..<6).map { #"{"phoneInfo":"+1555555011\#($0)"}"# }.joined(separator: ",")
            #expect(try await admin.post("/accounts", #"{"mfaInfo":[\#(six)]}"#).errorMessage == "SECOND_FACTOR_LIMIT_EXCEEDED")
        }
    }

    @Test("update with mfa.enrollments replaces the factors, keeps a listed TOTP factor's secret; empty or absent removes all; the errors")
    func update() async throws {
        try await withHearth { hearth, client async throws in
            let admin = AdminClient(client)
            _ = try await admin.post(
                "/accounts",
                #"{"localId":"bob","email":"bob@example.com","emailVerified":true,"mfaInfo":[{"phoneInfo":"+15555550100","mfaEnrollmentId":"p1"}]}"#)
            let totp = SecondFactorEnrollment(
                id: "t1", displayName: "Authenticator", enrolledAt: Date(timeIntervalSince1970: 1_700_000_000), factor: .totp(sealedSecret: "SEALED"))
            try await hearth.services.store.updateUser(uid: "bob", session: nil) {
                $0.secondFactors.append(totp)
                $0.recoveryCodeHashes = ["hash"]
            }

            // A new phone factor beside the kept TOTP one; the old phone factor goes.
            let replaced = try await admin.post(
                "/accounts:update",
                #"{"localId":"bob","mfa":{"enrollments":[{"mfaEnrollmentId":"t1","totpInfo":{}},{"mfaEnrollmentId":"p2","phoneInfo":"+15555550102","displayName":"New"},{"mfaEnrollmentId":"p3","phoneInfo":"+15555550102"}]}}"#
            )
            #expect(replaced.status == .ok, "\(replaced.text)")
            var stored = try #require(try await hearth.services.store.user(uid: "bob"))
            #expect(stored.secondFactors.map(\.id) == ["t1", "p2"])
            #expect(stored.secondFactors.first == totp, "the TOTP factor and its secret are kept")
            #expect(stored.secondFactors.last?.phoneNumber == "+15555550102" && stored.secondFactors.last?.displayName == "New")
            #expect(stored.recoveryCodeHashes == ["hash"])
            let shown = try await Self.factors(admin, "bob")
            #expect(shown.map(\.mfaEnrollmentId) == ["t1", "p2"] && shown[0].totpInfo != nil && shown[0].phoneInfo == nil)

            func error(_ enrollments: String) async throws -> String? {
                try await admin.post("/accounts:update", #"{"localId":"bob","mfa":{"enrollments":\#(enrollments)}}"#).errorMessage
            }
            #expect(try await error(#"[{"mfaEnrollmentId":"p4","phoneInfo":"5555550104"}]"#) == "INVALID_MFA_PHONE_NUMBER : Invalid format.")
            #expect(try await error(#"[{"mfaEnrollmentId":"p4"}]"#) == "INVALID_MFA_PHONE_NUMBER : Invalid format.")
            #expect(try await error(#"[{"phoneInfo":"+15555550104"}]"#) == "INVALID_MFA_ENROLLMENT_ID : mfaEnrollmentId must be defined.")
            #expect(try await error(#"[{"totpInfo":{}}]"#) == "INVALID_MFA_ENROLLMENT_ID : mfaEnrollmentId must be defined.")
            #expect(
                try await error(#"[{"mfaEnrollmentId":"x","phoneInfo":"+15555550104"},{"mfaEnrollmentId":"x","phoneInfo":"+15555550105"}]"#)
                    == "DUPLICATE_MFA_ENROLLMENT_ID")
            #expect(try await error(#"[{"mfaEnrollmentId":"p2","totpInfo":{}}]"#) == "MFA_ENROLLMENT_NOT_FOUND")
            let unchanged = try #require(try await hearth.services.store.user(uid: "bob"))
            #expect(unchanged.secondFactors.map(\.id) == ["t1", "p2"], "a refused update changes nothing")

            // An empty list removes every factor, and the recovery codes with them.
            #expect(try await admin.post("/accounts:update", #"{"localId":"bob","mfa":{"enrollments":[]}}"#).status == .ok)
            stored = try #require(try await hearth.services.store.user(uid: "bob"))
            #expect(stored.secondFactors.isEmpty && stored.recoveryCodeHashes.isEmpty)
            #expect(try await Self.factors(admin, "bob").isEmpty)

            // `mfa` without `enrollments` (what firebase-admin sends for an empty list) removes them too.
            _ = try await admin.post(
                "/accounts:update", #"{"localId":"bob","mfa":{"enrollments":[{"mfaEnrollmentId":"p5","phoneInfo":"+15555550105"}]}}"#)
            #expect(try await Self.factors(admin, "bob").count == 1)
            #expect(try await admin.post("/accounts:update", #"{"localId":"bob","mfa":{}}"#).status == .ok)
            #expect(try await Self.factors(admin, "bob").isEmpty)

            // The audit event names the field, never a number.
            let events = try await hearth.services.store.auditEvents(uid: "bob", kind: .adminUserUpdated, after: nil, limit: 100)
            #expect(!events.isEmpty && events.allSatisfy { $0.details["fields"] == "mfa" })
            #expect(!events.contains { $0.details.values.contains { $0.contains("555") } })
        }
    }

    @Test("batchCreate with mfaInfo: phone factors imported; the per-user messages of Identity Toolkit's import")
    func batchCreate() async throws {
        try await withHearth { hearth, client async throws in
            let admin = AdminClient(client)
            let verified = #""email":"u@example.com","emailVerified":true"#
            let result = try await admin.post(
                "/accounts:batchCreate",
                #"""
                {"users":[
                  {"localId":"ok",\#(verified),"mfaInfo":[{"mfaEnrollmentId":"e1","phoneInfo":"+15555550100","displayName":"Work","enrolledAt":"2020-01-02T03:04:05Z"}]},
                  {"localId":"no-email","mfaInfo":[{"phoneInfo":"+15555550100"}]},
                  {"localId":"unverified","email":"v@example.com","mfaInfo":[{"phoneInfo":"+15555550100"}]},
                  {"localId":"twice","email":"w@example.com","emailVerified":true,"mfaInfo":[{"mfaEnrollmentId":"a","phoneInfo":"+15555550100"},{"mfaEnrollmentId":"a","phoneInfo":"+15555550101"}]},
                  {"localId":"totp","email":"x@example.com","emailVerified":true,"mfaInfo":[{"mfaEnrollmentId":"t","totpInfo":{}}]},
                  {"localId":"bad-number","email":"y@example.com","emailVerified":true,"mfaInfo":[{"phoneInfo":"0100"}]}
                ]}
                """#)
            #expect(result.status == .ok, "\(result.text)")
            let errors = try result.decode(BatchCreateResponse.self).error ?? []
            #expect(errors.map(\.index) == [1, 2, 3, 4, 5])
            #expect(
                errors.map(\.message) == [
                    "Second factor account requires email to be presented.", "Second factor account requires email to be verified.",
                    "Enrollment id already exists.", "Second factor not supported.", "Phone number format is invalid",
                ])
            let factors = try await Self.factors(admin, "ok")
            #expect(factors.map(\.mfaEnrollmentId) == ["e1"] && factors.first?.phoneInfo == "+15555550100")
            #expect(factors.first?.displayName == "Work" && factors.first?.enrolledAt == "2020-01-02T03:04:05.000Z")
            #expect(try await hearth.services.store.user(uid: "unverified") == nil)
        }
    }

    @Test("export files carry phone factors as mfaInfo and never TOTP factors; the file's mfaInfo imports")
    func exportFile() throws {
        var info = UserInfo(localId: "ada")
        info.mfaInfo = [
            MFAEnrollment(mfaEnrollmentId: "p1", displayName: "Work", enrolledAt: "2020-01-02T03:04:05.000Z", phoneInfo: "+15555550100"),
            MFAEnrollment(mfaEnrollmentId: "t1", displayName: "App", enrolledAt: "2020-01-02T03:04:05.000Z", totpInfo: .init()),
        ]
        let exported = ExportedUser(info)
        #expect(exported.mfaInfo?.map(\.mfaEnrollmentId) == ["p1"])
        #expect(exported.userInfo.mfaInfo == exported.mfaInfo)
        let json = String(decoding: try JSONEncoder().encode(exported), as: UTF8.self)
        #expect(json.contains(#""phoneInfo":"+15555550100""#) && !json.contains("totpInfo"), "\(json)")
        var plain = UserInfo(localId: "bob")
        plain.mfaInfo = [MFAEnrollment(mfaEnrollmentId: "t1", totpInfo: .init())]
        #expect(ExportedUser(plain).mfaInfo == nil)
    }
}
