import Foundation
import HearthSandbox
import Testing

@Suite("Microsoft")
struct MicrosoftTests {
    @Test("Personal accounts: consumers tenant, padded oid, pairwise sub ≠ oid, issuer names the tid")
    func personalAccount() async throws {
        try await withSandbox { sandbox, client in
            let clientID = sandbox.credentials.microsoft.clientID
            let token = try sandbox.microsoftIDToken(for: .microsoftPersonal, nonce: .claim("nonce-xyz"))
            let jwt = try IndependentJWT(token)
            #expect(jwt.header["typ"]?.string == "JWT")
            let keys = try await client.get("/microsoft/consumers/discovery/v2.0/keys")
            #expect(try jwt.verifies(against: keys.body))
            let tid = "9188040d-6c67-4c5b-b112-36a304b66dad"
            #expect(jwt["tid"]?.string == tid)
            #expect(jwt["iss"]?.string == "https://login.microsoftonline.com/\(tid)/v2.0")
            #expect(jwt["ver"]?.string == "2.0")
            #expect(jwt["aud"]?.string == clientID)
            let oid = try #require(jwt["oid"]?.string)
            #expect(oid.wholeMatch(of: /00000000-0000-0000-[0-9a-f]{4}-[0-9a-f]{12}/) != nil)
            #expect(oid.replacingOccurrences(of: "-", with: "").suffix(16) == "fde926f844473904")
            #expect(SandboxIdentity.microsoftPersonal.microsoftFederatedID == "fde926f844473904")
            let sub = try #require(jwt["sub"]?.string)
            #expect(sub != oid)
            #expect(sub.count == 43)
            #expect(jwt["nonce"]?.string == "nonce-xyz")
            #expect(jwt["preferred_username"]?.string == "abe.lincoln@outlook.com")
            #expect(jwt["name"]?.string == "Abe Lincoln")
            #expect(jwt["nbf"]?.int == jwt["iat"]?.int)

            let otherApp = try IndependentJWT(
                try sandbox.microsoftIDToken(for: .microsoftPersonal, clientID: sandbox.credentials.microsoft.otherClientID))
            #expect(otherApp["oid"]?.string == oid)
            #expect(otherApp["sub"]?.string != sub, "sub is pairwise per application")
        }
    }

    @Test("Work accounts: tenant GUID oid and issuer; the tenant-mismatch defect breaks iss == tid")
    func workAccount() async throws {
        try await withSandbox { sandbox, client in
            let jwt = try IndependentJWT(try sandbox.microsoftIDToken(for: .microsoftWork))
            let tenant = SandboxMicrosoftTenant.contoso.id
            #expect(jwt["tid"]?.string == tenant)
            #expect(jwt["oid"]?.string == SandboxIdentity.microsoftWork.subject)
            #expect(jwt["iss"]?.string == "https://login.microsoftonline.com/\(tenant)/v2.0")
            #expect(jwt["email"]?.string == "adele@contoso.com")
            #expect(jwt["xms_edov"] == .bool(true))
            #expect(try jwt.verifies(against: try await client.get("/microsoft/\(tenant)/discovery/v2.0/keys").body))
            #expect(try jwt.verifies(against: try await client.get("/microsoft/contoso.onmicrosoft.com/discovery/v2.0/keys").body))

            let mismatch = try IndependentJWT(try sandbox.microsoftIDToken(for: .microsoftWork, defect: .issuerTenantMismatch))
            #expect(mismatch["tid"]?.string == tenant)
            let iss = try #require(mismatch["iss"]?.string)
            #expect(iss.hasPrefix("https://login.microsoftonline.com/") && !iss.contains(tenant))
        }
    }

    @Test("Discovery: common has the literal {tenantid} issuer, consumers the MSA GUID; unknown tenants get AADSTS90002")
    func discovery() async throws {
        try await withSandbox { sandbox, client in
            let common = try await client.get("/microsoft/common/v2.0/.well-known/openid-configuration")
            #expect(common.status == .ok)
            #expect(common["issuer"]?.string == "https://login.microsoftonline.com/{tenantid}/v2.0")
            #expect(common["jwks_uri"]?.string == "http://sandbox.test/microsoft/common/discovery/v2.0/keys")
            #expect(common["id_token_signing_alg_values_supported"] == .array([.string("RS256")]))
            let organizations = try await client.get("/microsoft/organizations/v2.0/.well-known/openid-configuration")
            #expect(organizations["issuer"]?.string == "https://login.microsoftonline.com/{tenantid}/v2.0")
            let consumers = try await client.get("/microsoft/consumers/v2.0/.well-known/openid-configuration")
            #expect(consumers["issuer"]?.string == "https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0")
            let tenant = try await client.get("/microsoft/\(SandboxMicrosoftTenant.fabrikam.id)/v2.0/.well-known/openid-configuration")
            #expect(tenant["issuer"]?.string == "https://login.microsoftonline.com/\(SandboxMicrosoftTenant.fabrikam.id)/v2.0")
            #expect(sandbox.discoveryFetchCount(.microsoft) == 4)

            let unknown = try await client.get("/microsoft/00000000-1111-2222-3333-444444444444/discovery/v2.0/keys")
            #expect(unknown.status == .badRequest)
            #expect(unknown["error"]?.string == "invalid_tenant")
            #expect(unknown["error_codes"] == .array([.number(90002)]))
            #expect(unknown["error_description"]?.string?.hasPrefix("AADSTS90002: Tenant '00000000-1111-2222-3333-444444444444' not found.") == true)
        }
    }
}
