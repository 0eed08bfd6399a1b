import Foundation
import HearthBase64URL
import HearthPythonScripts
import Testing
import X509

/// scripts/webauthn-authenticator.py (Yubico's fido2 and cryptography from PyPI, through scripts/python-venv.sh):
/// the authenticator the tests check HearthWebAuthn against, so that no credential, signature or attestation is
/// made by Hearth's own code.
enum SoftwareAuthenticator {
    /// Runs `webauthn-authenticator.py arguments…` with `input` on its standard input; its standard output.
    static func run(_ arguments: [String], input: Data = Data("{}".utf8)) throws -> Data {
        do {
            return try PythonScript("webauthn-authenticator.py").run(arguments, input: input)
        } catch let failure as PythonScript.Failure {
            throw AuthenticatorError(message: failure.message)
        }
    }

    /// Two attestation CAs made once per run: `ca`, which issues the authenticators' attestation certificates,
    /// and `other`, an anchor they do not chain to.
    static let certificateAuthorities: Result<URL, AuthenticatorError> = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-webauthn-ca-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for name in ["ca", "other"] { _ = try run(["ca", directory.path, name]) }
            return .success(directory)
        } catch {
            return .failure(AuthenticatorError(message: "\(error)"))
        }
    }()

    /// The CA `name`'s certificate.
    static func certificate(_ name: String) throws -> Certificate {
        let directory = try certificateAuthorities.get()
        return try Certificate(pemEncoded: String(contentsOf: directory.appendingPathComponent("\(name).cert.pem"), encoding: .utf8))
    }

    /// A registration made by the script from `spec` (see the script's documentation for the keys).
    static func register(_ spec: [String: any Sendable]) throws -> Registration {
        var spec = spec
        if spec["attestation"] as? String == "packed-x5c" { spec["caDirectory"] = try certificateAuthorities.get().path }
        let output = try run(["register"], input: JSONSerialization.data(withJSONObject: spec))
        let object = try #require(JSONSerialization.jsonObject(with: output) as? [String: Any])
        let credential = try #require(object["credential"] as? [String: Any])
        let response = try #require(credential["response"] as? [String: Any])
        return Registration(
            json: try JSONSerialization.data(withJSONObject: credential),
            credentialID: try bytes(credential["id"]),
            clientDataJSON: try bytes(response["clientDataJSON"]),
            attestationObject: try bytes(response["attestationObject"]),
            privateKey: try #require(object["privateKey"] as? String),
            alg: try #require(object["alg"] as? String)
        )
    }

    /// An assertion by `registration`'s key, made by the script from `spec`.
    static func assert(_ registration: Registration, _ spec: [String: any Sendable]) throws -> Assertion {
        var spec = spec
        spec["privateKey"] = registration.privateKey
        spec["alg"] = registration.alg
        spec["credentialId"] = Base64URL.encode(registration.credentialID)
        let output = try run(["assert"], input: JSONSerialization.data(withJSONObject: spec))
        let object = try #require(JSONSerialization.jsonObject(with: output) as? [String: Any])
        let credential = try #require(object["credential"] as? [String: Any])
        let response = try #require(credential["response"] as? [String: Any])
        return Assertion(
            json: try JSONSerialization.data(withJSONObject: credential),
            clientDataJSON: try bytes(response["clientDataJSON"]),
            authenticatorData: try bytes(response["authenticatorData"]),
            signature: try bytes(response["signature"])
        )
    }

    private static func bytes(_ value: Any?) throws -> [UInt8] {
        let text = try #require(value as? String)
        return try #require(Base64URL.decode(text))
    }

    struct Registration: Sendable {
        /// The credential as `PublicKeyCredential.toJSON()` has it.
        let json: Data
        let credentialID: [UInt8]
        let clientDataJSON: [UInt8]
        let attestationObject: [UInt8]
        let privateKey: String
        let alg: String
    }

    struct Assertion: Sendable {
        let json: Data
        let clientDataJSON: [UInt8]
        let authenticatorData: [UInt8]
        let signature: [UInt8]
    }
}

struct AuthenticatorError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
