import NIOCore

/// A server reply: its code and the text of each of its lines (`250-first`, `250 last`).
struct SMTPReply: Sendable, Equatable {
    var code: Int
    var lines: [String]

    /// The text of all lines, joined with spaces (for errors; ``SMTPError`` shortens it).
    var text: String { lines.joined(separator: " ") }

    /// The extension keywords of an EHLO reply, upper-cased, each with its parameters: `["AUTH": ["PLAIN", "LOGIN"]]`.
    /// The first line is the greeting and not an extension. The old `AUTH=PLAIN` form counts as AUTH.
    var extensions: [String: [String]] {
        var result: [String: [String]] = [:]
        for line in lines.dropFirst() {
            var words = line.split(separator: " ").map { $0.uppercased() }
            guard !words.isEmpty else { continue }
            var keyword = words.removeFirst()
            if keyword.hasPrefix("AUTH=") {
                words.insert(String(keyword.dropFirst(5)), at: 0)
                keyword = "AUTH"
            }
            result[keyword, default: []] += words
        }
        return result
    }
}

/// Splits the server's bytes into replies: lines ending in CRLF (or LF) of the form `ddd-text` (more lines
/// follow) or `ddd text` / `ddd` (the last line). Anything else, a line longer than ``lineLimit`` bytes or a
/// reply of more than ``maximumLines`` lines is a ``SMTPError/Code/protocolViolation``.
struct SMTPReplyDecoder: ByteToMessageDecoder {
    typealias InboundOut = SMTPReply

    static let lineLimit = 4096
    static let maximumLines = 200

    private var pending: SMTPReply?

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > Self.lineLimit { throw SMTPError(.protocolViolation, "a reply line is too long") }
            return .needMoreData
        }
        let length = newline - buffer.readerIndex
        guard length <= Self.lineLimit, var line = buffer.readBytes(length: length + 1) else {
            throw SMTPError(.protocolViolation, "a reply line is too long")
        }
        line.removeLast()
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        guard line.count >= 3, line[0...2].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            line.count == 3 || line[3] == UInt8(ascii: " ") || line[3] == UInt8(ascii: "-")
        else {
            throw SMTPError(.protocolViolation, "a reply line does not start with a three-digit code")
        }
        let code = Int(line[0] - 48) * 100 + Int(line[1] - 48) * 10 + Int(line[2] - 48)
        let text = line.count > 4 ? String(decoding: line[4...], as: UTF8.self) : ""
        let isLast = line.count == 3 || line[3] == UInt8(ascii: " ")
        var reply = pending ?? SMTPReply(code: code, lines: [])
        guard reply.code == code else { throw SMTPError(.protocolViolation, "a multi-line reply changes its code") }
        reply.lines.append(text)
        guard reply.lines.count <= Self.maximumLines else { throw SMTPError(.protocolViolation, "a reply has too many lines") }
        if isLast {
            pending = nil
            context.fireChannelRead(wrapInboundOut(reply))
        } else {
            pending = reply
        }
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}
