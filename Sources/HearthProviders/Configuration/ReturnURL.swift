import Foundation

/// An app return URL (`continueUri`), read strictly enough that what Hearth compares is what a browser
/// will open.
///
/// Browsers are lenient where a string comparison is not: they drop tabs and newlines, read `\` as `/`
/// in web URLs, take `https:evil.example` and `https:///evil.example` as the host `evil.example`, decode
/// `%2e` in hosts, and send `https://app.example.com@evil.example/` to `evil.example`. So a return URL is
/// refused outright when it has any of these: control characters, white space or backslashes; user info
/// (`@` in the authority); a web URL without `//host`; `%` in the host; dot segments (`.`, `..`, also
/// percent-encoded) or encoded slashes in the path. What is left is compared by component, never as text.
public struct ReturnURL: Sendable, Equatable {
    /// Lower-cased.
    public let scheme: String
    /// Lower-cased, internationalised labels in their ASCII (`xn--`) form, IPv6 literals in brackets;
    /// `nil` for a URL without an authority (`com.example.app:/oauth`).
    public let host: String?
    /// The explicit port, else the scheme's default (80, 443); `nil` when neither is known.
    public let port: Int?
    /// As written, percent-encoding kept.
    public let path: String

    /// Reads `text`, or returns `nil` when it is not a return URL Hearth can compare safely.
    public init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count <= 2_048 else { return nil }
        for scalar in text.unicodeScalars {
            if scalar.value < 0x21 || scalar.value == 0x7F || scalar == "\\" { return nil }
            if scalar.properties.isWhitespace || scalar.properties.generalCategory == .format { return nil }
        }
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon].lowercased()
        guard let first = scheme.unicodeScalars.first, Self.isASCIILetter(first),
            scheme.unicodeScalars.allSatisfy({ Self.isASCIILetter($0) || Self.isDigit($0) || "+-.".unicodeScalars.contains($0) })
        else { return nil }

        var rest = text[text.index(after: colon)...]
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        var host: String?
        var port: Int?
        if rest.hasPrefix("//") {
            let authorityAndPath = rest.dropFirst(2)
            let authorityEnd = authorityAndPath.firstIndex(of: "/") ?? authorityAndPath.endIndex
            let authority = authorityAndPath[..<authorityEnd]
            guard let parsed = Self.parseAuthority(authority) else { return nil }
            host = parsed.host
            port = parsed.port
            rest = authorityAndPath[authorityEnd...]
        } else if Self.webSchemes.contains(scheme) {
            return nil
        }
        if let host, host.isEmpty { return nil }
        if Self.webSchemes.contains(scheme), host == nil { return nil }
        let path = String(rest)
        guard Self.isSafePath(path) else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = port ?? Self.defaultPorts[scheme]
        self.path = path
    }

    /// Whether this is `http://127.0.0.1`, `http://[::1]` or `http://localhost` on any port: the loopback
    /// redirect of desktop and command-line apps (RFC 8252 §7.3).
    public var isLoopback: Bool {
        (scheme == "http" || scheme == "https") && ["127.0.0.1", "[::1]", "localhost"].contains(host ?? "")
    }

    /// Whether the scheme is an app's own (private-use) scheme: in reverse-domain form, as RFC 8252 §7.1
    /// asks (`com.example.app`), or Firebase's `app-1-<number>-ios-<hex>`. `ftp`, `ws`, `javascript`,
    /// `data`, `vbscript` and every other scheme a browser handles itself are not.
    public var hasAppScheme: Bool {
        if Self.webSchemes.contains(scheme) { return false }
        let labels = scheme.split(separator: ".", omittingEmptySubsequences: false)
        if labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }) { return true }
        let parts = scheme.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 5 && parts[0] == "app" && parts[1].allSatisfy(\.isNumber) && parts[2].allSatisfy(\.isNumber)
            && ["ios", "android", "web"].contains(String(parts[3])) && parts[4].allSatisfy(\.isHexDigit) && !parts[4].isEmpty
    }

    /// Whether `self`, a configured return URL, admits `candidate`: the same scheme, host and port, and
    /// `candidate`'s path equal to this path or below it on a segment boundary (`/auth` admits `/auth`,
    /// `/auth/` and `/auth/done`, never `/authx`). An empty path admits every path.
    public func admits(_ candidate: ReturnURL) -> Bool {
        guard candidate.scheme == scheme, candidate.host == host, candidate.port == port else { return false }
        if path.isEmpty || candidate.path == path { return true }
        let prefix = path.hasSuffix("/") ? path : path + "/"
        return candidate.path.hasPrefix(prefix)
    }

    // MARK: Parsing

    static let webSchemes: Set<String> = ["http", "https"]
    static let defaultPorts = ["http": 80, "https": 443]

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    /// `host[:port]`, refusing user info, percent signs, empty ports and ports out of range.
    private static func parseAuthority(_ authority: Substring) -> (host: String, port: Int?)? {
        guard !authority.contains("@"), !authority.contains("%") else { return nil }
        var hostPart = authority
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            hostPart = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
            let literal = hostPart.dropFirst().dropLast()
            guard !literal.isEmpty, literal.unicodeScalars.allSatisfy({ $0 == ":" || $0 == "." || $0.properties.isASCIIHexDigit }) else {
                return nil
            }
            return finish(host: hostPart.lowercased(), portText: portText)
        }
        if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard let host = asciiHost(hostPart) else { return nil }
        return finish(host: host, portText: portText)
    }

    private static func finish(host: String, portText: Substring?) -> (host: String, port: Int?)? {
        guard let portText else { return (host, nil) }
        guard !portText.isEmpty, portText.count <= 5, portText.unicodeScalars.allSatisfy(isDigit), let port = Int(portText),
            (1...65_535).contains(port)
        else { return nil }
        return (host, port)
    }

    /// The host lower-cased, each non-ASCII label in Punycode (NFC first); `nil` for characters no host has.
    static func asciiHost(_ host: Substring) -> String? {
        var labels: [String] = []
        for label in host.precomposedStringWithCanonicalMapping.lowercased().split(separator: ".", omittingEmptySubsequences: false) {
            if label.unicodeScalars.allSatisfy(\.isASCII) {
                guard label.unicodeScalars.allSatisfy({ isASCIILetter($0) || isDigit($0) || $0 == "-" || $0 == "_" }) else { return nil }
                labels.append(String(label))
            } else {
                guard let encoded = Punycode.encode(label) else { return nil }
                labels.append("xn--" + encoded)
            }
        }
        return labels.joined(separator: ".")
    }

    /// A path without dot segments, encoded slashes or encoded backslashes (whatever their case).
    private static func isSafePath(_ path: String) -> Bool {
        let lowered = path.lowercased()
        if lowered.contains("%2f") || lowered.contains("%5c") || lowered.contains("%00") { return false }
        for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
            let decoded = (String(segment).removingPercentEncoding ?? String(segment))
            if decoded == "." || decoded == ".." { return false }
        }
        return true
    }
}

/// RFC 3492 Punycode, the encoding of internationalised host labels (`bücher` → `bcher-kva`).
enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 128

    /// The label's Punycode form without the `xn--` prefix, or `nil` when it overflows.
    static func encode(_ label: Substring) -> String? {
        let input = label.unicodeScalars.map { Int($0.value) }
        var output = input.filter { $0 < 0x80 }.map { Character(Unicode.Scalar(UInt8($0))) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append("-") }
        var n = initialN
        var delta = 0
        var bias = initialBias
        while handled < input.count {
            guard let next = input.filter({ $0 >= n }).min() else { return nil }
            let (step, overflow) = (next - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow, delta <= Int(Int32.max) - step else { return nil }
            delta += step
            n = next
            for value in input {
                if value < n { delta += 1 }
                guard value == n else { continue }
                var q = delta
                var k = base
                while true {
                    let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                    if q < t { break }
                    output.append(digit(t + (q - t) % (base - t)))
                    q = (q - t) / (base - t)
                    k += base
                }
                output.append(digit(q))
                bias = adapt(delta, points: handled + 1, first: handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return String(output)
    }

    private static func digit(_ value: Int) -> Character {
        Character(Unicode.Scalar(UInt8(value < 26 ? 97 + value : 22 + value)))
    }

    private static func adapt(_ delta: Int, points: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / points
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }
}
