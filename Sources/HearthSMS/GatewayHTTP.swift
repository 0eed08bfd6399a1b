import AsyncHTTPClient
import Foundation
import HearthCore
import NIOCore
import NIOHTTP1

/// One POST to a gateway under one deadline for the whole exchange, its answer read up to a size limit. Failures
/// that produced no answer (refused, timed out, TLS) are ``SMSDeliveryFailure``s to retry; the answer's meaning is
/// the gateway's to read. Only the scheme, host and path ever reach an error message.
struct GatewayHTTP: Sendable {
    let client: HTTPClient
    /// Seconds the exchange may take.
    let timeout: Double
    /// The largest answer read.
    static let maximumResponseBytes = 64 * 1024

    struct Answer: Sendable {
        let status: Int
        let body: Data
        var isSuccess: Bool { (200..<300).contains(status) }
    }

    func post(_ url: URL, headers: [(String, String)], body: Data, gateway: String) async throws -> Answer {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "User-Agent", value: "Hearth")
        request.headers.add(name: "Accept", value: "application/json")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let prepared = request
        let client = self.client
        let clientTimeout = TimeAmount.nanoseconds(Int64(max(timeout, 0.001) * 0.9 * 1_000_000_000))
        let target = "\(url.scheme ?? "")://\(url.host ?? "")\(url.port.map { ":\($0)" } ?? "")\(url.path)"
        do {
            return try await Deadline.run(seconds: max(timeout, 0.001)) {
                let response = try await client.execute(prepared, timeout: clientTimeout)
                let buffer = try await response.body.collect(upTo: Self.maximumResponseBytes)
                return Answer(status: Int(response.status.code), body: Data(buffer.readableBytesView))
            }
        } catch is Deadline.Exceeded {
            throw SMSDeliveryFailure("\(gateway) \(target): timed out after \(timeout) s", permanent: false)
        } catch is NIOTooManyBytesError {
            throw SMSDeliveryFailure("\(gateway) \(target): answer larger than \(Self.maximumResponseBytes) bytes", permanent: false)
        } catch let error as HTTPClientError {
            switch error {
            case .deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout, .getConnectionFromPoolTimeout:
                throw SMSDeliveryFailure("\(gateway) \(target): timed out after \(timeout) s (\(error))", permanent: false)
            default:
                throw SMSDeliveryFailure("\(gateway) \(target): \(error)", permanent: false)
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw SMSDeliveryFailure("\(gateway) \(target): \(type(of: error))", permanent: false)
        }
    }

    /// `text` cut to 200 characters on one line, for an error message (a gateway's answer can be long or odd).
    static func excerpt(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) }.prefix(200))
    }
}
