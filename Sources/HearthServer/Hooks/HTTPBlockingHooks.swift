import AsyncHTTPClient
import Foundation
import HearthConfiguration
import HearthCore
import HearthTokens
import HearthWireMapping
import NIOCore
import NIOHTTP1

/// The blocking hooks as Identity Platform calls its blocking functions: `POST functionUri` with
/// `{"data":{"jwt":…}}`, the event signed by Hearth's token keys (a hook checks it at the published JWKS, as an ID
/// token), Firebase's 7-second time-out, no redirect followed, at most ``maximumAnswerBytes`` read back.
///
/// A hook's answer `{"userRecord": {"updateMask": "…", …}}` becomes ``BlockingHookChanges``; an answer other than 200
/// blocks the sign-in with `BLOCKING_FUNCTION_ERROR_RESPONSE` carrying the hook's `error.message`, as do a time-out, a
/// redirect, an oversized or unreadable answer and claims a token could not carry.
struct HTTPBlockingHooks: BlockingHookCalling {
    /// Firebase's limit: a hook answers within 7 seconds or the sign-in fails.
    static let timeout: TimeAmount = .seconds(7)
    /// The largest answer read.
    static let maximumAnswerBytes = 64 * 1024
    /// One client for every hook, following no redirect: a hook's URL is the operator's, and a redirect could send
    /// the person's data anywhere. It lives as long as the process (as the composition's client does).
    static let client = HTTPClient(
        eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))

    let tokens: TokenService
    let configuration: ServerConfiguration
    let clock: WallClock

    init(services: HearthServices) {
        tokens = services.tokens
        configuration = services.configuration
        clock = services.clock
    }

    func call(_ uri: String, event: BlockingHookEvent, settings: BlockingHookSettings) async throws -> BlockingHookChanges {
        // Checked again at each call: a setting stored by an older version, or by hand, goes nowhere else either.
        guard BlockingHookSettings.isAllowedURI(uri, development: configuration.mode == .development) else {
            throw BlockingHookChanges.failure("((The blocking function's URI is not an allowed HTTPS URL.))", reason: "hook URI refused at call time")
        }
        let jwt = try await tokens.signJWT(
            event.claims(
                audience: uri, settings: settings, issuer: configuration.resolvedIssuer, projectID: configuration.projectID, now: clock.now))
        var request = HTTPClientRequest(url: uri)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Hearth/\(HearthVersion.current) blocking-hook")
        request.body = .bytes(ByteBuffer(bytes: Data(JSONValue.object(["data": .object(["jwt": .string(jwt)])]).jsonText.utf8)))
        let status: HTTPResponseStatus
        let body: ByteBuffer
        do {
            let response = try await Self.client.execute(request, timeout: Self.timeout)
            status = response.status
            body = try await response.body.collect(upTo: Self.maximumAnswerBytes)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw BlockingHookChanges.failure("((The blocking function did not answer within 7 seconds.))", reason: "hook timed out")
        } catch is NIOTooManyBytesError {
            throw BlockingHookChanges.failure("((The blocking function's answer is larger than 64 KiB.))", reason: "hook answer too large")
        } catch let error as HearthError {
            throw error
        } catch {
            throw BlockingHookChanges.failure("((HTTP request to \(uri) failed.))", reason: "hook unreachable: \(error)")
        }
        let text = String(decoding: body.readableBytesView, as: UTF8.self)
        guard status == .ok else {
            throw BlockingHookChanges.failure(
                "((HTTP request to \(uri) returned HTTP error \(status.code): \(BlockingHookChanges.message(in: text))))", reason: "hook refused")
        }
        guard event.kind == .beforeCreate || event.kind == .beforeSignIn else {
            // A message's hook may only let it go or stop it.
            if case .string("BLOCK")? = JSONValue.object(fromJSON: text.isEmpty ? "{}" : text)?["recaptchaActionOverride"] {
                throw BlockingHookChanges.failure("((The blocking function stopped the message.))", reason: "hook blocked a message")
            }
            return .none
        }
        return try BlockingHookChanges(answer: text)
    }
}
