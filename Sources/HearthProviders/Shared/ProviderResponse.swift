import Foundation
import HearthCore
import NIOHTTP1

/// A provider's answer, read in full (within the size limit).
struct ProviderResponse: Sendable {
    var status: UInt
    var headers: HTTPHeaders
    var body: Data
    /// Who answered, for error reasons ("Google", "GitHub").
    var provider: String

    var isSuccess: Bool { (200..<300).contains(status) }

    /// The body as any JSON value.
    func json() throws -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: body)
        } catch {
            throw ProviderFailure.invalid(
                "The identity provider's response is not valid JSON.", reason: "\(provider) answered HTTP \(status) with a body that is not JSON",
                underlying: error)
        }
    }

    /// The body as a JSON object.
    func jsonObject() throws -> [String: JSONValue] {
        guard case .object(let object) = try json() else {
            throw ProviderFailure.invalid(
                "The identity provider's response is not a JSON object.",
                reason: "\(provider) answered HTTP \(status) with JSON that is not an object")
        }
        return object
    }
}
