import Foundation
import HearthPythonScripts
import HearthSAML
import Testing

/// scripts/saml-idp.py (signxml, lxml and cryptography from PyPI, through scripts/python-venv.sh): the SAML IdP
/// the tests check HearthSAML against, so that no response is signed or encrypted by libxmlsec1 itself.
enum PythonIdP {
    /// Runs `saml-idp.py arguments…` with `input` on its standard input; its standard output.
    static func run(_ arguments: [String], input: Data = Data()) throws -> Data {
        do {
            return try PythonScript("saml-idp.py").run(arguments, input: input)
        } catch let failure as PythonScript.Failure {
            throw PythonIdPError(message: failure.message)
        }
    }

    /// The keys of one test run: the IdP's, another IdP's (an attacker's) and the SP's, each a PEM key and a
    /// self-signed certificate, made once by the script.
    struct Keys: Sendable {
        let directory: URL
        func key(_ name: String) -> String { directory.appendingPathComponent("\(name).key.pem").path }
        func certificate(_ name: String) -> String { directory.appendingPathComponent("\(name).cert.pem").path }
        func certificatePEM(_ name: String) throws -> String { try String(contentsOfFile: certificate(name), encoding: .utf8) }
        func keyPEM(_ name: String) throws -> String { try String(contentsOfFile: key(name), encoding: .utf8) }
    }

    static let keys: Result<Keys, PythonIdPError> = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-saml-keys-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for name in ["idp", "other", "sp"] { _ = try run(["keygen", directory.path, name]) }
            return .success(Keys(directory: directory))
        } catch {
            return .failure(PythonIdPError(message: "\(error)"))
        }
    }()

    /// A Response as the script signs it (and encrypts it) from `spec`.
    static func response(_ spec: [String: any Sendable]) throws -> String {
        let json = try JSONSerialization.data(withJSONObject: spec)
        return String(decoding: try run(["response"], input: json), as: UTF8.self)
    }

    /// `xml` changed by the script's attack `name`.
    static func attack(_ name: String, on xml: String) throws -> String {
        String(decoding: try run(["attack", name], input: Data(xml.utf8)), as: UTF8.self)
    }
}

struct PythonIdPError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
