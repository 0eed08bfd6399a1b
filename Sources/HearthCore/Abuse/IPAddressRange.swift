import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address as its bytes (4 or 16), with a canonical text form.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// Parses `192.0.2.1`, `2001:db8::1` or `[2001:db8::1]`. An IPv4-mapped IPv6 address
    /// (`::ffff:192.0.2.1`) becomes the IPv4 address, so that one client has one form.
    public init?(_ text: some StringProtocol) {
        var text = String(text)
        if text.utf8.first.map(Self.isBlank) == true || text.utf8.last.map(Self.isBlank) == true {
            text = text.trimmingCharacters(in: .whitespaces)
        }
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        // Hex digits, dots and colons only: no zone index, and nothing a C string would cut short (NUL).
        guard !text.isEmpty, text.utf8.count <= 64, text.utf8.allSatisfy(Self.mayAppear) else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.init(bytes: withUnsafeBytes(of: &v4) { Array($0) })
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        self.init(normalizing: withUnsafeBytes(of: &v6) { Array($0) })
    }

    /// The address of 4 or 16 bytes as a socket gives them; an IPv4-mapped IPv6 address becomes the IPv4 address.
    public init(normalizing all: [UInt8]) {
        if all.count == 16, all[0..<10].allSatisfy({ $0 == 0 }), all[10] == 0xff, all[11] == 0xff {
            bytes = Array(all[12..<16])
        } else {
            bytes = all
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// A byte of an address's text: a hex digit, a dot or a colon.
    private static func mayAppear(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"),
            UInt8(ascii: "."), UInt8(ascii: ":"):
            true
        default: false
        }
    }

    /// What the limits count under: an IPv4 address itself; for IPv6 its /64 network (written
    /// `2001:db8:1:2::/64`), since one subscriber usually holds a whole /64 and could otherwise take a
    /// fresh address for every request.
    public var limitKey: String {
        guard bytes.count == 16 else { return description }
        return "\(IPAddress(bytes: Array(bytes[0..<8]) + Array(repeating: 0, count: 8)))/64"
    }

    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// The canonical text form (`inet_ntop`'s; an IPv4 address's dotted decimal written here).
    public var description: String {
        if bytes.count == 4 { return "\(bytes[0]).\(bytes[1]).\(bytes[2]).\(bytes[3])" }
        var buffer = [CChar](repeating: 0, count: 64)
        var raw = bytes
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let ok = raw.withUnsafeMutableBytes { pointer in
            inet_ntop(family, pointer.baseAddress, &buffer, socklen_t(buffer.count)) != nil
        }
        guard ok else { return bytes.map { String($0) }.joined(separator: ".") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A CIDR block such as `10.0.0.0/8` or `fd00::/8`; a bare address is a block of one.
public struct IPAddressRange: Sendable, Hashable, CustomStringConvertible {
    public let network: IPAddress
    public let prefixLength: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(parts[0]) else { return nil }
        let maximum = address.bytes.count * 8
        if parts.count == 2 {
            guard let length = Int(parts[1]), (0...maximum).contains(length) else { return nil }
            prefixLength = length
        } else {
            prefixLength = maximum
        }
        network = address
    }

    public func contains(_ address: IPAddress) -> Bool {
        guard address.bytes.count == network.bytes.count else { return false }
        var remaining = prefixLength
        for index in 0..<address.bytes.count where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xff << (8 - bits))
            if address.bytes[index] & mask != network.bytes[index] & mask { return false }
            remaining -= bits
        }
        return true
    }

    public var description: String { "\(network)/\(prefixLength)" }
}
