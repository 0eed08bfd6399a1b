import Crypto
import CryptoExtras
import Foundation
import HearthBase64URL
import HearthCore
import HearthTokens
import NIOCore
import NIOPosix

/// Measures the CPU ceilings the server's figures are compared with: how many RS256 signatures, RS256
/// verifications, ES256 verifications and scrypt hashes this machine makes per second with one worker thread per core and nothing else running.
///
/// A request that signs one ID token (sign-up, refresh) cannot go faster than the RS256 ceiling, and one
/// that checks a password cannot go faster than the scrypt ceiling; the ratio to the ceiling tells how
/// much the rest of the server (HTTP, JSON, SQLite) and the load client cost on top.
struct CeilingMeter {
    /// Result of one ceiling measurement.
    struct Measurement: Sendable {
        let operationsPerSecond: Double
        let operations: Int
        let workers: Int
        /// CPU the rest of the machine used meanwhile, in cores; a ceiling measured while something else
        /// ran is too low.
        let otherCores: Double?

        /// The mean rate of two measurements (e.g. before and after the load), the busier "other".
        func averaged(with other: Measurement) -> Measurement {
            Measurement(
                operationsPerSecond: (operationsPerSecond + other.operationsPerSecond) / 2,
                operations: operations + other.operations,
                workers: workers,
                otherCores: [otherCores, other.otherCores].compactMap { $0 }.max())
        }
    }

    let workers: Int
    let duration: TimeAmount

    /// RS256 (RSASSA-PKCS1-v1_5, SHA-256, 2048-bit key) over a JWT signing input of `payloadBytes`, by the faster of
    /// the two libraries the server can sign with (``RS256Library``): the best this machine does, whichever the
    /// server picked. `each` has both.
    func rs256(payloadBytes: Int = 600) async throws -> (best: Measurement, each: [RS256Library: Measurement]) {
        var each: [RS256Library: Measurement] = [:]
        for library in RS256Library.allCases { each[library] = try await rs256(payloadBytes: payloadBytes, library: library) }
        let best = each.max { $0.value.operationsPerSecond < $1.value.operationsPerSecond }!
        return (best.value, each)
    }

    /// RS256 signatures by one library; swift-crypto's when `library` is unavailable.
    func rs256(payloadBytes: Int, library: RS256Library) async throws -> Measurement {
        let pem = try _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation
        let key = try RS256SigningKey(pemRepresentation: pem, library: library)
        let input = Array(Self.jwtSigningInput(length: payloadBytes).utf8)
        return try await measure {
            _ = try key.signature(for: input)
        }
    }

    /// RS256 verification: one signature (2048-bit key, PKCS#1 v1.5, SHA-256) over a JWT signing input of
    /// `payloadBytes`, checked again and again with the public key, as `HearthAdmin.verifyIDToken` checks
    /// each token (SHA-256 of the input, then the RSA public-key operation).
    func rs256Verification(payloadBytes: Int = 600) async throws -> Measurement {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let input = Array(Self.jwtSigningInput(length: payloadBytes).utf8)
        let signature = try key.signature(for: input, padding: .insecurePKCS1v1_5)
        let publicKey = key.publicKey
        return try await measure {
            guard publicKey.isValidSignature(signature, for: input, padding: .insecurePKCS1v1_5) else {
                throw BenchmarkError("the RS256 verification ceiling's own signature did not verify")
            }
        }
    }

    /// ES256 verification as a passkey sign-in does it: one ECDSA P-256 signature (DER) over authenticator data and
    /// the SHA-256 of a `clientDataJSON`, checked again and again with the public key (the signature parsed each time,
    /// as the server parses each assertion's).
    func es256Verification() async throws -> Measurement {
        let key = P256.Signing.PrivateKey()
        let message = [UInt8](repeating: 0x5A, count: 37) + Array(SHA256.hash(data: Array(Self.jwtSigningInput(length: 200).utf8)))
        let signature = try key.signature(for: message).derRepresentation
        let publicKey = key.publicKey
        return try await measure {
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature), publicKey.isValidSignature(parsed, for: message)
            else { throw BenchmarkError("the ES256 verification ceiling's own signature did not verify") }
        }
    }

    /// The server's password hasher (scrypt, N = 2^logN, r = 8, p = 1, 32-byte output).
    func scrypt(logN: Int) async throws -> Measurement {
        let hasher = PasswordHasher(logN: logN)
        return try await measure {
            _ = try hasher.hash("correct horse battery staple")
        }
    }

    /// Runs `operation` in a loop on `workers` threads for `duration` (after one untimed round each).
    private func measure(_ operation: @escaping @Sendable () throws -> Void) async throws -> Measurement {
        let pool = NIOThreadPool(numberOfThreads: workers)
        pool.start()
        let duration = self.duration
        let started = NIODeadline.now()
        let ownBefore = ProcessStatus.cpuSeconds(pid: "self")
        let machineBefore = ProcessStatus.machineBusySeconds()
        do {
            let perWorker = try await withThrowingTaskGroup(of: (count: Int, seconds: Double).self) { tasks in
                for _ in 0..<workers {
                    tasks.addTask {
                        try await pool.runIfActive {
                            try operation()
                            let start = NIODeadline.now()
                            let end = start + duration
                            var count = 0
                            var now = start
                            repeat {
                                try operation()
                                count += 1
                                now = .now()
                            } while now < end
                            return (count, Double((now - start).nanoseconds) / 1e9)
                        }
                    }
                }
                var results: [(count: Int, seconds: Double)] = []
                for try await result in tasks { results.append(result) }
                return results
            }
            let wall = Double((NIODeadline.now() - started).nanoseconds) / 1e9
            var otherCores: Double?
            if let ownBefore, let machineBefore, let own = ProcessStatus.cpuSeconds(pid: "self"),
                let machine = ProcessStatus.machineBusySeconds(), wall > 0
            {
                otherCores = max(0, (machine - machineBefore) - (own - ownBefore)) / wall
            }
            try await pool.shutdownGracefully()
            return Measurement(
                operationsPerSecond: perWorker.reduce(0) { $0 + Double($1.count) / $1.seconds },
                operations: perWorker.reduce(0) { $0 + $1.count },
                workers: workers,
                otherCores: otherCores)
        } catch {
            try? await pool.shutdownGracefully()
            throw error
        }
    }

    /// A header and claims shaped like the server's ID tokens, base64url-encoded and padded to `length` bytes.
    static func jwtSigningInput(length: Int) -> String {
        func base64URL(_ text: String) -> String { Base64URL.encode(text.utf8) }
        let header = base64URL(#"{"alg":"RS256","kid":"0123456789abcdef0123456789abcdef01234567","typ":"JWT"}"#)
        let claims =
            #"{"iss":"https://securetoken.google.com/demo-hearth","aud":"demo-hearth","auth_time":1767225600,"user_id":"Xq3bT9kLmN2pR7sV5wY8zA1cD4eF","sub":"Xq3bT9kLmN2pR7sV5wY8zA1cD4eF","iat":1767225600,"exp":1767229200,"email":"someone@example.com","email_verified":false,"firebase":{"identities":{"email":["someone@example.com"]},"sign_in_provider":"password"}"#
        var padding = ""
        var input = header + "." + base64URL(claims + "}")
        while input.utf8.count < length {  // a custom claim grows until the input is long enough
            padding += "x"
            input = header + "." + base64URL(claims + #","name":"\#(padding)"}"#)
        }
        return input
    }
}
