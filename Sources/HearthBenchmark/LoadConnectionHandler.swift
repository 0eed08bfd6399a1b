import NIOCore
import NIOHTTP1

/// Drives one keep-alive connection: one request in flight, the next written as soon as the previous
/// response ends, everything on the channel's event loop (no task hop per request, so the client stays cheap).
///
/// It completes `promise` with its ``ConnectionReport`` when the schedule is over, or fails it when the
/// connection breaks or a response takes longer than `requestTimeout`.
final class LoadConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let plan: RequestPlan
    private let schedule: LoadSchedule
    private let counter: RequestCounter
    private let requestTimeout: TimeAmount
    private let promise: EventLoopPromise<ConnectionReport>

    private var report = ConnectionReport()
    private var finished = false
    private var inFlight = false
    private var index = 0
    private var sentAt = NIODeadline.now()
    private var status: UInt = 0
    private var keepsBody = false
    private var body = ByteBuffer()
    private var watchdog: Scheduled<Void>?

    init(plan: RequestPlan, schedule: LoadSchedule, counter: RequestCounter, requestTimeout: TimeAmount, promise: EventLoopPromise<ConnectionReport>)
    {
        self.plan = plan
        self.schedule = schedule
        self.counter = counter
        self.requestTimeout = requestTimeout
        self.promise = promise
    }

    func channelActive(context: ChannelHandlerContext) {
        armWatchdog(context: context, at: .now() + requestTimeout)
        sendNext(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(BenchmarkError("\(plan.name): the server closed a connection\(inFlight ? " with a request in flight" : "")"), context: context)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(BenchmarkError("\(plan.name): connection error: \(error)"), context: context)
        context.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = head.status.code
            keepsBody = plan.capturesBodies || status != plan.expectedStatus
            if keepsBody { body.clear() }
        case .body(var part):
            if keepsBody { body.writeBuffer(&part) }
        case .end:
            guard inFlight else { return }
            inFlight = false
            record(completedAt: .now())
            sendNext(context: context)
        }
    }

    private func record(completedAt now: NIODeadline) {
        let measured: Bool
        switch schedule {
        case .timed(let start, let end): measured = now >= start && now < end
        case .counted: measured = true
        }
        if plan.capturesBodies {
            report.captured.append(.init(index: index, status: status, body: String(buffer: body)))
        }
        guard measured else { return }
        report.latencies.append(UInt64(max(0, (now - sentAt).nanoseconds)))
        if status == plan.expectedStatus {
            report.successes += 1
        } else {
            report.errorsByStatus[status, default: 0] += 1
            if report.errorSamples[status] == nil {
                report.errorSamples[status] = String(String(buffer: body).prefix(300))
            }
        }
    }

    private func sendNext(context: ChannelHandlerContext) {
        guard !finished else { return }
        let now = NIODeadline.now()
        switch schedule {
        case .timed(_, let end):
            guard now < end else { return succeed(context: context) }
            index = counter.next() % plan.requests.count
        case .counted(let count):
            index = counter.next()
            guard index < min(count, plan.requests.count) else { return succeed(context: context) }
        }
        let request = plan.requests[index]
        inFlight = true
        sentAt = now
        context.write(wrapOutboundOut(.head(request.head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(request.body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// One timer per connection rather than one per request: when it fires it checks the request in
    /// flight and re-arms itself for that request's deadline.
    private func armWatchdog(context: ChannelHandlerContext, at deadline: NIODeadline) {
        watchdog = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            guard !finished else { return }
            let due = sentAt + requestTimeout
            if inFlight, due <= .now() {
                fail(BenchmarkError("\(plan.name): no response within \(requestTimeout.nanoseconds / 1_000_000_000) s"), context: context)
                context.close(promise: nil)
            } else {
                armWatchdog(context: context, at: inFlight ? due : .now() + requestTimeout)
            }
        }
    }

    private func succeed(context: ChannelHandlerContext) {
        guard !finished else { return }
        finished = true
        watchdog?.cancel()
        promise.succeed(report)
        context.close(promise: nil)
    }

    private func fail(_ error: any Error, context: ChannelHandlerContext) {
        guard !finished else { return }
        finished = true
        watchdog?.cancel()
        promise.fail(error)
    }
}
