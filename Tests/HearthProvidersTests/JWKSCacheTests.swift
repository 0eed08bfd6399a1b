import Foundation
import HearthCore
import NIOHTTP1
import Testing

@testable import HearthProviders

@Suite("JWKS cache: max-age, refetch on unknown kid, and the refetch floor")
struct JWKSCacheTests {
    static let keysPath = "/apple/auth/keys"

    func appleToken(_ environment: FakeEnvironment, key: TestKey = .primary, kid: String? = nil) -> FederatedCredential {
        let header: [String: JSONValue] = kid.map { ["kid": .string($0)] } ?? [:]
        return FederatedCredential(providerID: "apple.com", idToken: TokenMinter.mint(environment.appleClaims(), key: key, header: header))
    }

    @Test("a fetched key set is reused while fresh")
    func cached() async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry()
            for _ in 0..<5 { _ = try await registry.verify(appleToken(environment)) }
            #expect(environment.state.fetchCount(Self.keysPath) == 1)
        }
    }

    @Test("after max-age the set is fetched again")
    func maxAge() async throws {
        try await FakeEnvironment.run { environment in
            environment.state.update { $0.cacheControl = "public, max-age=120, must-revalidate" }
            let registry = environment.registry()
            _ = try await registry.verify(appleToken(environment))
            environment.clock.advance(by: 100)
            _ = try await registry.verify(appleToken(environment))
            #expect(environment.state.fetchCount(Self.keysPath) == 1)
            environment.clock.advance(by: 30)
            _ = try await registry.verify(appleToken(environment))
            #expect(environment.state.fetchCount(Self.keysPath) == 2)
        }
    }

    @Test("a rotated key is found by refetching on its unknown kid")
    func rotation() async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry()
            _ = try await registry.verify(appleToken(environment))
            environment.state.update { $0.published.append(TestKey.second) }
            environment.clock.advance(by: 61)
            let profile = try await registry.verify(appleToken(environment, key: .second))
            #expect(profile.providerID == "apple.com")
            #expect(environment.state.fetchCount(Self.keysPath) == 2)
        }
    }

    @Test("a flood of made-up kids costs at most one fetch per floor interval")
    func floor() async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry()
            _ = try await registry.verify(appleToken(environment))
            #expect(environment.state.fetchCount(Self.keysPath) == 1)

            // Within the floor: a rotated key is not looked for yet, and no bad kid causes a fetch.
            environment.state.update { $0.published.append(TestKey.second) }
            environment.clock.advance(by: 10)
            let early = await rejection { try await registry.verify(appleToken(environment, key: .second)) }
            #expect(early?.detail == "Invalid Apple id_token: it is signed with an unknown key.")
            #expect(environment.state.fetchCount(Self.keysPath) == 1)

            // Past the floor: one refetch for the whole flood, sequential and concurrent.
            environment.clock.advance(by: 60)
            for index in 0..<20 {
                _ = await rejection { try await registry.verify(appleToken(environment, key: .second, kid: "made-up-\(index)")) }
            }
            await withTaskGroup(of: Void.self) { group in
                for index in 20..<80 {
                    group.addTask {
                        _ = await rejection { try await registry.verify(appleToken(environment, key: .second, kid: "made-up-\(index)")) }
                    }
                }
            }
            #expect(environment.state.fetchCount(Self.keysPath) == 2)
            // The refetch also brought the rotated key.
            _ = try await registry.verify(appleToken(environment, key: .second))
            #expect(environment.state.fetchCount(Self.keysPath) == 2)

            // The next interval allows exactly one more.
            environment.clock.advance(by: 61)
            for index in 0..<20 {
                _ = await rejection { try await registry.verify(appleToken(environment, key: .second, kid: "again-\(index)")) }
            }
            #expect(environment.state.fetchCount(Self.keysPath) == 3)
        }
    }

    @Test("the floor is configurable")
    func configurableFloor() async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry { $0.keyCaching.minimumRefetchInterval = 5 }
            _ = try await registry.verify(appleToken(environment))
            environment.clock.advance(by: 6)
            _ = await rejection { try await registry.verify(appleToken(environment, kid: "unknown")) }
            _ = await rejection { try await registry.verify(appleToken(environment, kid: "unknown-2")) }
            #expect(environment.state.fetchCount(Self.keysPath) == 2)
        }
    }

    @Test("concurrent first uses share one fetch")
    func coalesced() async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<30 { group.addTask { _ = try await registry.verify(appleToken(environment)) } }
                try await group.waitForAll()
            }
            #expect(environment.state.fetchCount(Self.keysPath) == 1)
        }
    }

    @Test("Cache-Control max-age is read and clamped between the floor and the maximum")
    func lifetime() {
        let policy = ProvidersConfiguration.KeyCaching(defaultMaxAge: 3_600, maximumMaxAge: 86_400, minimumRefetchInterval: 60)
        func lifetime(_ value: String?) -> TimeInterval {
            var headers = HTTPHeaders()
            if let value { headers.add(name: "Cache-Control", value: value) }
            return CacheLifetime.seconds(for: headers, policy: policy)
        }
        #expect(lifetime("public, max-age=21537, must-revalidate, no-transform") == 21_537)
        #expect(lifetime(nil) == 3_600)
        #expect(lifetime("no-store") == 60)
        #expect(lifetime("max-age=5") == 60)
        #expect(lifetime("max-age=99999999") == 86_400)
        #expect(lifetime("max-age=oops") == 3_600)
    }

    @Test("JWKS entries Hearth must not use are skipped")
    func skippedKeys() async throws {
        let encryption: JSONValue = .object(["kty": "RSA", "use": "enc", "kid": "enc", "n": "AQAB", "e": "AQAB"])
        let hmac: JSONValue = .object(["kty": "oct", "kid": "hmac", "k": "c2VjcmV0"])
        let wrongAlg: JSONValue = {
            guard case .object(var fields) = TestKey.primary.jwk else { return .null }
            fields["alg"] = "RS512"
            return .object(fields)
        }()
        #expect(await JWKSCache.signingKey(from: encryption) == nil)
        #expect(await JWKSCache.signingKey(from: hmac) == nil)
        #expect(await JWKSCache.signingKey(from: wrongAlg) == nil)
        #expect(await JWKSCache.signingKey(from: TestKey.primary.jwk)?.algorithm == .rs256)
        #expect(await JWKSCache.signingKey(from: TestKey.elliptic.jwk)?.algorithm == .es256)
    }
}
