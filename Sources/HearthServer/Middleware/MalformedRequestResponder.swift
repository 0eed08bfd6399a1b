import HTTPTypes
import HearthWire
import HearthWireMapping
import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers a request the HTTP parser refuses (headers over the decoder's limits, a malformed request
/// line or header) with Google's JSON error envelope, then closes the connection. Without it the
/// client gets a bare `400` with an empty body.
///
/// It sits after the HTTP/1 codec, so it sees the parser's error before the server's request loop does.
final class MalformedRequestResponder: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    private var answered = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        guard !answered else { return }
        answered = true
        let failure = Self.failure(for: parserError)
        let body = WireCoding.encodedBody(failure)
        var head = HTTPResponse(status: failure.status)
        head.headerFields[.contentType] = "application/json; charset=UTF-8"
        head.headerFields[.contentLength] = String(body.readableBytes)
        head.headerFields[.connection] = "close"
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }

    /// 413 for headers over the limits, 400 for anything else the parser refuses.
    static func failure(for error: HTTPParserError) -> RequestError {
        switch error {
        case .headerOverflow:
            RequestError(
                status: .contentTooLarge, message: "Request header fields too large.", statusName: "INVALID_ARGUMENT",
                reason: "badRequest")
        default:
            RequestError(status: .badRequest, message: "Malformed HTTP request.", statusName: "INVALID_ARGUMENT", reason: "badRequest")
        }
    }
}
