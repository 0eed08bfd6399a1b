import HearthCore
import HearthWireMapping
import Hummingbird
import Logging
import NIOCore

/// Turns every error into Firebase's error JSON. Unknown errors are logged by type only and answered
/// with a generic 500, so internal detail never reaches a client.
struct WireErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HearthError {
            RequestRecord.noteError(error.errorCode)
            if error.code == .internalError || error.code == .storageUnavailable {
                context.logger.error(
                    "request failed",
                    metadata: [
                        "code": "\(error.code.rawValue)", "at": "\(error.file):\(error.line)",
                        "underlying": "\(error.underlying.map { String(describing: type(of: $0)) } ?? "-")",
                    ])
            }
            return error.response()
        } catch let pending as SecondFactorRequired {
            // Not an error on the wire: the first factor passed, and the answer says what the second is to be.
            return WireCoding.response(pending.wire)
        } catch let error as RequestError {
            RequestRecord.noteError(error.statusName)
            return error.response()
        } catch let error as StoreConflict {
            RequestRecord.noteError(error.error.errorCode)
            context.logger.warning("store conflict reached the middleware", metadata: ["conflict": "\(error)"])
            return error.error.response()
        } catch let error as NIOTooManyBytesError {
            return RequestError.payloadTooLarge(limit: error.maxBytes ?? 0).response()
        } catch let error as HTTPError {
            RequestRecord.noteError(error.status == .notFound ? "NOT_FOUND" : "INVALID_ARGUMENT")
            switch error.status {
            case .notFound: return RequestError.notFound.response()
            case .methodNotAllowed: return RequestError.methodNotAllowed.response()
            case .contentTooLarge: return RequestError.payloadTooLarge(limit: 0).response()
            default:
                return RequestError(status: error.status, message: error.status.reasonPhrase, statusName: "INVALID_ARGUMENT", reason: "badRequest")
                    .response()
            }
        } catch {
            context.logger.error("request failed with an unexpected error", metadata: ["type": "\(String(describing: type(of: error)))"])
            return HearthError(.internalError).response()
        }
    }
}
