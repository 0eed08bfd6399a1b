import Foundation
import HTTPTypes
import HearthCore
import HearthWire
import HearthWireMapping
import Hummingbird

extension HearthError {
    /// Firebase's error envelope for this error (``wire``), with `Retry-After` for the abuse limits.
    func response() -> Response {
        let wire = self.wire
        var body = WireErrorResponse(code: Int(wire.status.code), message: wire.message, reason: wire.reason, status: wire.statusName)
        if code == .invalidArgument { body.error.message = wire.message.trimmingCharacters(in: .whitespaces) }
        var response = WireCoding.response(body, status: wire.status)
        if let retryAfter { response.headers[.retryAfter] = String(max(1, retryAfter)) }
        return response
    }
}

/// Request-level failures that are not domain errors: API keys, payload size, routing.
struct RequestError: Error {
    let status: HTTPResponse.Status
    let message: String
    let statusName: String
    let reason: String

    static let missingAPIKey = RequestError(
        status: .forbidden, message: WireErrorMessage.missingAPIKey, statusName: "PERMISSION_DENIED", reason: "forbidden")
    static let invalidAPIKey = RequestError(
        status: .badRequest, message: WireErrorMessage.invalidAPIKey, statusName: "INVALID_ARGUMENT", reason: "keyInvalid")
    static let notFound = RequestError(status: .notFound, message: "Not Found", statusName: "NOT_FOUND", reason: "notFound")
    static let methodNotAllowed = RequestError(
        status: .methodNotAllowed, message: "Method Not Allowed", statusName: "INVALID_ARGUMENT", reason: "badRequest")
    static func payloadTooLarge(limit: Int) -> RequestError {
        RequestError(
            status: .contentTooLarge, message: "Request payload size exceeds the limit: \(limit) bytes.", statusName: "INVALID_ARGUMENT",
            reason: "badRequest")
    }

    /// The envelope of this error.
    var envelope: WireErrorResponse {
        WireErrorResponse(code: Int(status.code), message: message, reason: reason, status: statusName)
    }

    func response() -> Response {
        WireCoding.response(envelope, status: status)
    }
}
