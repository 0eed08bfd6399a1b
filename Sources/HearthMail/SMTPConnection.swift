import NIOCore
import NIOPosix
import NIOSSL

/// One SMTP session on a channel: writes commands and waits, under the time-out, for each reply in turn.
/// Every failure comes out as an ``SMTPError``.
struct SMTPConnection: Sendable {
    let channel: any Channel
    private let replies: NIOLoopBound<SMTPReplyHandler>
    private let timeout: TimeAmount
    private let timeoutText: String

    /// Connects (through TLS from the first byte when `tls` is given) and sets up the reply decoder.
    static func connect(
        host: String, port: Int, tls: (context: NIOSSLContext, serverHostname: String?)?, timeout: Duration,
        group: any EventLoopGroup
    ) async throws(SMTPError) -> SMTPConnection {
        let amount = TimeAmount(timeout)
        do {
            // The handler comes out of the initializer itself: with TLS from the first byte, a failed handshake
            // may close the channel (and empty its pipeline) before `connect` returns.
            let connection = try await ClientBootstrap(group: group)
                .connectTimeout(amount)
                .channelOption(.socketOption(.so_keepalive), value: 1)
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let pipeline = channel.pipeline.syncOperations
                        if let tls {
                            try pipeline.addHandler(NIOSSLClientHandler(context: tls.context, serverHostname: tls.serverHostname))
                        }
                        let replies = SMTPReplyHandler()
                        try pipeline.addHandler(ByteToMessageHandler(SMTPReplyDecoder()))
                        try pipeline.addHandler(replies)
                        return SMTPConnection(
                            channel: channel, replies: NIOLoopBound(replies, eventLoop: channel.eventLoop), timeout: amount,
                            timeoutText: "\(timeout)")
                    }
                }
            return connection
        } catch let error as SMTPError {
            throw error
        } catch ChannelError.connectTimeout {
            throw SMTPError(.timeout, "no connection to \(host):\(port) within \(timeout)")
        } catch {
            throw SMTPError(.connectionFailed, "cannot connect to \(host):\(port): \(error)")
        }
    }

    /// Writes `line` and CRLF (nothing when `nil`: the greeting) and waits for the reply, which must have one of
    /// the `expected` codes. `stage` names the step in errors (`"AUTH PLAIN"` rather than the line, which may
    /// hold credentials).
    @discardableResult
    func command(_ line: String?, stage: String, expecting expected: Set<Int>) async throws(SMTPError) -> SMTPReply {
        var bytes: ByteBuffer?
        if let line { bytes = ByteBuffer(string: line + "\r\n") }
        return try await exchange(bytes, stage: stage, expecting: expected)
    }

    /// Writes `bytes` as they are and waits for the reply.
    @discardableResult
    func exchange(_ bytes: ByteBuffer?, stage: String, expecting expected: Set<Int>) async throws(SMTPError) -> SMTPReply {
        let channel = channel
        let replies = replies
        let timeout = timeout
        let timeoutError = SMTPError(.timeout, "no reply to \(stage) within \(timeoutText)")
        let reply: SMTPReply
        do {
            reply = try await channel.eventLoop.flatSubmit {
                let future = replies.value.nextReply()
                if let bytes {
                    channel.writeAndFlush(bytes).whenFailure { error in
                        replies.value.fail(SMTPReplyHandler.smtpError(error, stage: stage))
                    }
                }
                let timer = channel.eventLoop.scheduleTask(in: timeout) {
                    replies.value.fail(timeoutError)
                    channel.close(promise: nil)
                }
                future.whenComplete { _ in timer.cancel() }
                return future
            }.get()
        } catch {
            throw SMTPReplyHandler.smtpError(error, stage: stage)
        }
        guard expected.contains(reply.code) else {
            throw SMTPError(.rejected, stage, replyCode: reply.code, replyText: reply.text)
        }
        return reply
    }

    /// Puts TLS under the session (after the server's 220 to STARTTLS). The handshake happens with the next
    /// command, under its time-out.
    func startTLS(context: NIOSSLContext, serverHostname: String?) async throws(SMTPError) {
        let channel = channel
        let replies = replies
        do {
            try await channel.eventLoop.submit {
                // Replies that came with the 220 were sent before TLS and must not pass for answers under it
                // (the STARTTLS command injection of CVE-2011-0411, seen from the client's side).
                guard !replies.value.hasUnreadReplies else {
                    throw SMTPError(.protocolViolation, "the server sent more replies with its 220 to STARTTLS")
                }
                let handler = try NIOSSLClientHandler(context: context, serverHostname: serverHostname)
                try channel.pipeline.syncOperations.addHandler(handler, position: .first)
            }.get()
        } catch let error as SMTPError {
            throw error
        } catch {
            throw SMTPError(.tlsFailed, "cannot start TLS: \(error)")
        }
    }

    func close() async {
        try? await channel.close()
    }
}

/// Hands each reply to the command waiting for it, in order; fails every waiter, present and future, once the
/// connection fails or closes.
final class SMTPReplyHandler: ChannelInboundHandler {
    typealias InboundIn = SMTPReply

    private var waiting = CircularBuffer<EventLoopPromise<SMTPReply>>()
    private var arrived = CircularBuffer<SMTPReply>()
    private var failure: SMTPError?
    private var eventLoop: (any EventLoop)?

    func handlerAdded(context: ChannelHandlerContext) {
        eventLoop = context.eventLoop
    }

    /// The next reply: one that has arrived, or a future one.
    func nextReply() -> EventLoopFuture<SMTPReply> {
        guard let eventLoop else { preconditionFailure("SMTPReplyHandler used before it was added") }
        if let reply = arrived.popFirst() { return eventLoop.makeSucceededFuture(reply) }
        if let failure { return eventLoop.makeFailedFuture(failure) }
        let promise = eventLoop.makePromise(of: SMTPReply.self)
        waiting.append(promise)
        return promise.futureResult
    }

    /// Whether replies have arrived that no command has asked for yet.
    var hasUnreadReplies: Bool { !arrived.isEmpty }

    func fail(_ error: SMTPError) {
        if failure == nil { failure = error }
        while let promise = waiting.popFirst() { promise.fail(failure ?? error) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let reply = unwrapInboundIn(data)
        if let promise = waiting.popFirst() {
            promise.succeed(reply)
        } else {
            arrived.append(reply)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(Self.smtpError(error, stage: "the session"))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(SMTPError(.connectionClosed, "the server closed the connection"))
        context.fireChannelInactive()
    }

    /// `error` as an ``SMTPError``: TLS errors as ``SMTPError/Code/tlsFailed``, the rest as a closed connection.
    static func smtpError(_ error: any Error, stage: String) -> SMTPError {
        switch error {
        case let error as SMTPError: error
        case let error as NIOSSLError: SMTPError(.tlsFailed, "TLS failed during \(stage): \(error)")
        case let error as BoringSSLError: SMTPError(.tlsFailed, "TLS failed during \(stage): \(error)")
        case let error as NIOSSLExtraError: SMTPError(.tlsFailed, "TLS failed during \(stage): \(error)")
        case let error as ByteToMessageDecoderError: SMTPError(.protocolViolation, "during \(stage): \(error)")
        default: SMTPError(.connectionClosed, "the connection failed during \(stage): \(error)")
        }
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        self = overflow ? .hours(24 * 365) : .nanoseconds(nanoseconds + attoseconds / 1_000_000_000)
    }
}
