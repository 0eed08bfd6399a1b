import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends the SDK's HTTP requests. ``URLSessionTransport`` is the default; supply another one in
/// ``HearthOptions/transport`` to route requests elsewhere (a proxy, a test double).
public protocol AuthTransport: Sendable {
    /// Sends one request and returns the body and response of any HTTP status; throws only when no HTTP
    /// response arrived (the SDK reports that as ``AuthErrorCode/networkError``).
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// ``AuthTransport`` over `URLSession` (FoundationNetworking on Linux).
public struct URLSessionTransport: AuthTransport {
    private let session: URLSession

    /// - Parameter session: defaults to an ephemeral session with a 60-second request timeout.
    public init(session: URLSession? = nil) {
        if let session {
            self.session = session
        } else {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 60
            configuration.httpCookieStorage = nil
            configuration.urlCache = nil
            self.session = URLSession(configuration: configuration)
        }
    }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let response = response as? HTTPURLResponse {
                    continuation.resume(returning: (data ?? Data(), response))
                } else {
                    continuation.resume(throwing: URLError(.badServerResponse))
                }
            }
            task.resume()
        }
    }
}
