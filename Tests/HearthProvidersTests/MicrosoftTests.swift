import Foundation
import HearthCore
import HearthProviders
import Testing

@Suite("microsoft.com")
struct MicrosoftTests {
    static let personalOID = "00000000-0000-0000-66f3-3332eca7ea81"

    func verify(_ environment: FakeEnvironment, tenant: String, claims: [String: JSONValue]) async throws -> FederatedProfile {
        try await environment.registry { $0.microsoft.tenant = tenant }
            .verify(.init(providerID: "microsoft.com", idToken: TokenMinter.mint(claims, key: .primary)))
    }

    @Test("work account: the federated id is oid, not the pairwise sub; no photo; email unverified without xms_edov")
    func workAccount() async throws {
        try await FakeEnvironment.run { environment in
            let profile = try await verify(environment, tenant: "common", claims: environment.microsoftClaims())
            #expect(profile.rawID == "3f2a4b5c-1d2e-4f60-8a9b-0c1d2e3f4a5b")
            #expect(profile.rawID != "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ")
            #expect(profile.displayName == "Abe Lincoln")
            #expect(profile.email == "abeli@contoso.com")
            #expect(!profile.emailVerified)
            #expect(profile.photoURL == nil)
            // The JWKS of the configured tenant was used.
            #expect(environment.state.fetchCount("/ms/common/discovery/v2.0/keys") == 1)
        }
    }

    @Test("xms_edov (\"1\", \"true\" or true) makes a work address verified")
    func domainOwnerVerified() async throws {
        try await FakeEnvironment.run { environment in
            for flag: JSONValue in ["1", "true", true] {
                let profile = try await verify(environment, tenant: "common", claims: environment.microsoftClaims(["xms_edov": flag]))
                #expect(profile.emailVerified)
            }
        }
    }

    @Test("personal account: the 16-hex-digit id from 00000000-0000-0000-XXXX-XXXXXXXXXXXX; outlook.com is verified")
    func personalAccount() async throws {
        try await FakeEnvironment.run { environment in
            let claims = environment.microsoftClaims(
                tenant: FakeEnvironment.consumersTenant, oid: Self.personalOID.uppercased(),
                ["email": "Abe@Outlook.com", "preferred_username": "abe@outlook.com"])
            for tenant in ["common", "consumers", "9188040d-6c67-4c5b-b112-36a304b66dad"] {
                let profile = try await verify(environment, tenant: tenant, claims: claims)
                #expect(profile.rawID == "66f33332eca7ea81")
                #expect(profile.email == "abe@outlook.com")
                #expect(profile.emailVerified)
            }
        }
    }

    @Test("the issuer must be the template filled with the token's own tid")
    func issuerTenantMismatch() async throws {
        try await FakeEnvironment.run { environment in
            let claims = environment.microsoftClaims(["iss": .string("https://login.microsoftonline.com/\(FakeEnvironment.otherTenant)/v2.0")])
            let error = await rejection { try await verify(environment, tenant: "common", claims: claims) }
            #expect(error?.code == .invalidIDPResponse)
            #expect(error?.detail?.contains("does not match its tenant") == true)

            let v1 = environment.microsoftClaims(["iss": .string("https://sts.windows.net/\(FakeEnvironment.workTenant)/")])
            #expect(await rejection { try await verify(environment, tenant: "common", claims: v1) }?.code == .invalidIDPResponse)

            let noTid = environment.microsoftClaims(["tid": nil])
            #expect(await rejection { try await verify(environment, tenant: "common", claims: noTid) }?.detail?.contains("tid") == true)
        }
    }

    @Test("organizations rejects personal accounts; consumers rejects work accounts")
    func audienceRules() async throws {
        try await FakeEnvironment.run { environment in
            let personal = environment.microsoftClaims(tenant: FakeEnvironment.consumersTenant, oid: Self.personalOID)
            let work = environment.microsoftClaims()

            let error = await rejection { try await verify(environment, tenant: "organizations", claims: personal) }
            #expect(error?.detail == "Invalid Microsoft id_token: personal Microsoft accounts may not sign in to this app.")
            _ = try await verify(environment, tenant: "organizations", claims: work)

            let consumerError = await rejection { try await verify(environment, tenant: "consumers", claims: work) }
            #expect(consumerError?.detail == "Invalid Microsoft id_token: only personal Microsoft accounts may sign in to this app.")
            _ = try await verify(environment, tenant: "consumers", claims: personal)
        }
    }

    @Test("a tenant GUID admits only that tenant")
    func singleTenant() async throws {
        try await FakeEnvironment.run { environment in
            _ = try await verify(environment, tenant: FakeEnvironment.workTenant.uppercased(), claims: environment.microsoftClaims())
            let other = environment.microsoftClaims(tenant: FakeEnvironment.otherTenant)
            let error = await rejection { try await verify(environment, tenant: FakeEnvironment.workTenant, claims: other) }
            #expect(error?.detail == "Invalid Microsoft id_token: accounts of tenant \(FakeEnvironment.otherTenant) may not sign in to this app.")
            let personal = environment.microsoftClaims(tenant: FakeEnvironment.consumersTenant, oid: Self.personalOID)
            #expect(await rejection { try await verify(environment, tenant: FakeEnvironment.workTenant, claims: personal) } != nil)
        }
    }

    @Test("a tenant domain is resolved through its discovery document")
    func domainTenant() async throws {
        try await FakeEnvironment.run { environment in
            environment.state.update { $0.microsoftDomains["contoso.onmicrosoft.com"] = FakeEnvironment.workTenant }
            let registry = environment.registry { $0.microsoft.tenant = "contoso.onmicrosoft.com" }
            _ = try await registry.verify(.init(providerID: "microsoft.com", idToken: TokenMinter.mint(environment.microsoftClaims(), key: .primary)))
            let other = TokenMinter.mint(environment.microsoftClaims(tenant: FakeEnvironment.otherTenant), key: .primary)
            let error = await rejection { try await registry.verify(.init(providerID: "microsoft.com", idToken: other)) }
            #expect(error?.detail == "Invalid Microsoft id_token: accounts of tenant \(FakeEnvironment.otherTenant) may not sign in to this app.")
            // An unknown domain cannot be resolved.
            let unknown = environment.registry { $0.microsoft.tenant = "nobody.example" }
            let unresolved = await rejection {
                try await unknown.verify(.init(providerID: "microsoft.com", idToken: TokenMinter.mint(environment.microsoftClaims(), key: .primary)))
            }
            #expect(unresolved?.code == .invalidIDPResponse)
            #expect(environment.state.fetchCount("/ms/contoso.onmicrosoft.com/v2.0/.well-known/openid-configuration") == 1)
        }
    }

    @Test("the tenant allow-list narrows common")
    func allowList() async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry { $0.microsoft.allowedTenantIDs = [FakeEnvironment.workTenant] }
            _ = try await registry.verify(.init(providerID: "microsoft.com", idToken: TokenMinter.mint(environment.microsoftClaims(), key: .primary)))
            let other = TokenMinter.mint(environment.microsoftClaims(tenant: FakeEnvironment.otherTenant), key: .primary)
            #expect(await rejection { try await registry.verify(.init(providerID: "microsoft.com", idToken: other)) }?.code == .invalidIDPResponse)
        }
    }

    @Test("a token without oid is rejected (sub is never used as the id)")
    func missingOID() async throws {
        try await FakeEnvironment.run { environment in
            let error = await rejection { try await verify(environment, tenant: "common", claims: environment.microsoftClaims(["oid": nil])) }
            #expect(error?.detail?.contains("oid") == true)
        }
    }
}
