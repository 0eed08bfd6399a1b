import Foundation

extension SMTPConfiguration {
    /// Reads a URL: `smtp://[user[:password]@]host[:port]` (STARTTLS, port 587), `smtps://…` (implicit TLS,
    /// port 465), `smtp://…?starttls=off` (plain, port 25; only for a relay on loopback). User and password
    /// are percent-decoded (`%40` for `@`, `%3A` for `:`). An IPv6 host goes in brackets. Errors say which
    /// part is wrong and never repeat the password.
    public init(url: String) throws(SMTPError) {
        func invalid(_ reason: String) -> SMTPError { SMTPError(.invalidConfiguration, "SMTP URL: \(reason)") }

        let security: Security
        var rest: Substring
        if let schemeEnd = url.range(of: "://") {
            switch url[..<schemeEnd.lowerBound].lowercased() {
            case "smtp": security = .startTLS
            case "smtps": security = .implicitTLS
            default: throw invalid("the scheme must be smtp or smtps")
            }
            rest = url[schemeEnd.upperBound...]
        } else {
            throw invalid("expected smtp://[user[:password]@]host[:port] or smtps://…")
        }
        if rest.contains(where: { $0.isWhitespace || $0 == "\0" }) { throw invalid("it contains whitespace or NUL") }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }

        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        if let slash = rest.firstIndex(of: "/") {
            guard rest[slash...] == "/" else { throw invalid("a path is not allowed") }
            rest = rest[..<slash]
        }

        var username: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                username = try Self.percentDecoded(userInfo[..<colon], part: "the user name")
                password = try Self.percentDecoded(userInfo[userInfo.index(after: colon)...], part: "the password")
            } else {
                username = try Self.percentDecoded(userInfo, part: "the user name")
            }
            if username?.isEmpty == true { throw invalid("the user name is empty") }
            if password == nil { throw invalid("the user \(username ?? "") has no password (user:password@host)") }
        }

        var host: String
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw invalid("the IPv6 address lacks its closing bracket") }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw invalid("unexpected text after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else if let colon = rest.firstIndex(of: ":") {
            host = String(rest[..<colon])
            portText = rest[rest.index(after: colon)...]
        } else {
            host = String(rest)
        }
        host = host.lowercased()
        if host.isEmpty { throw invalid("the host is missing") }
        if host.contains("%") { throw invalid("the host must not be percent-encoded") }
        var port: Int?
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number), portText.allSatisfy(\.isASCII) else {
                throw invalid("the port \"\(portText)\" is not a number between 1 and 65535")
            }
            port = number
        }

        var finalSecurity = security
        for item in query.split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pair[0].lowercased()
            let value = pair.count > 1 ? pair[1].lowercased() : ""
            switch (name, value) {
            case ("starttls", "off"), ("starttls", "false"), ("starttls", "no"):
                guard security == .startTLS else { throw invalid("starttls=off is for smtp://, not smtps://") }
                finalSecurity = .none
            case ("starttls", "on"), ("starttls", "true"), ("starttls", "yes"), ("starttls", "required"):
                guard security == .startTLS else { throw invalid("starttls is for smtp://, not smtps://") }
            case ("starttls", _):
                throw invalid("starttls must be on or off")
            default:
                throw invalid("unknown parameter \"\(name)\" (the only one is starttls=off)")
            }
        }

        self.init(host: host, port: port, security: finalSecurity, username: username, password: password)
        try validate()
    }

    /// `%XX` sequences decoded as UTF-8; the error names `part`, never its value.
    static func percentDecoded(_ text: Substring, part: String) throws(SMTPError) -> String {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw SMTPError(.invalidConfiguration, "SMTP URL: \(part) has a % not followed by two hex digits")
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw SMTPError(.invalidConfiguration, "SMTP URL: \(part) is not UTF-8 once percent-decoded")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
