import Foundation
import HTTPTypes
import HearthCore
import Testing

@testable import HearthServer

@Suite("Client addresses (pure)")
struct ClientAddressTests {
    @Test("addresses parse to one canonical form; CIDR blocks contain what they should")
    func addresses() {
        #expect(IPAddress("::ffff:192.0.2.1")?.description == "192.0.2.1")
        #expect(IPAddress("2001:DB8:0:0::1")?.description == "2001:db8::1")
        #expect(IPAddress("[::1]")?.description == "::1")
        // A forwarded hop may come with blanks around it (`a, b`); other characters are refused, not trimmed.
        #expect(IPAddress(" 192.0.2.1\t")?.description == "192.0.2.1")
        #expect(IPAddress("\u{A0}192.0.2.1") == nil)
        #expect(IPAddress("g::1") == nil)
        #expect(IPAddress("2001:db8::AbCd")?.description == "2001:db8::abcd")
        // A socket's bytes (the peer is read without its text): a mapped IPv4 address is the IPv4 address.
        #expect(IPAddress(normalizing: Array(repeating: 0, count: 10) + [0xff, 0xff, 192, 0, 2, 1]) == IPAddress("192.0.2.1"))
        #expect(IPAddress(normalizing: Array(repeating: 0, count: 15) + [1]).description == "::1")
        for text in ["0.0.0.0", "255.255.255.255", "10.0.200.9", "192.0.2.1"] {
            #expect(IPAddress(text)?.description == text)
        }
        for bad in ["", "1.2.3", "1.2.3.4.5", "256.1.1.1", "fe80::1%eth0", "1.2.3.4\u{0}", "example.com", String(repeating: "1", count: 500)] {
            #expect(IPAddress(bad) == nil, "\(bad)")
        }
        let block = IPAddressRange("10.0.0.0/8")!
        #expect(block.contains(IPAddress("10.255.1.2")!))
        #expect(!block.contains(IPAddress("11.0.0.1")!))
        #expect(!block.contains(IPAddress("::ffff:11.0.0.1")!))
        #expect(IPAddressRange("fd00::/8")!.contains(IPAddress("fd12::1")!))
        #expect(IPAddressRange("192.0.2.7")!.contains(IPAddress("192.0.2.7")!))
        #expect(!IPAddressRange("192.0.2.7")!.contains(IPAddress("192.0.2.8")!))
        #expect(IPAddressRange("10.0.0.0/33") == nil)
        #expect(IPAddressRange("10.0.0.0/x") == nil)
    }

    @Test("X-Forwarded-For is believed only from a trusted peer, and read from the right")
    func forwardedFor() {
        let resolver = ClientAddressResolver(trustedProxies: [IPAddressRange("10.0.0.0/8")!, IPAddressRange("127.0.0.1")!])
        func headers(_ values: String...) -> HTTPFields {
            var fields = HTTPFields()
            for value in values { fields.append(HTTPField(name: ClientAddressResolver.forwardedFor, value: value)) }
            return fields
        }
        // An untrusted peer: its header is ignored.
        #expect(resolver.resolve(peer: "198.51.100.1", headers: headers("203.0.113.9")) == "198.51.100.1")
        // A trusted peer: the right-most untrusted entry, whatever the client wrote further left.
        #expect(resolver.resolve(peer: "127.0.0.1", headers: headers("1.1.1.1, 203.0.113.9")) == "203.0.113.9")
        #expect(resolver.resolve(peer: "127.0.0.1", headers: headers("1.1.1.1, 203.0.113.9, 10.1.2.3")) == "203.0.113.9")
        #expect(resolver.resolve(peer: "127.0.0.1", headers: headers("1.1.1.1", "203.0.113.9")) == "203.0.113.9")
        // Garbage stops the walk at the last address a trusted hop vouched for.
        #expect(resolver.resolve(peer: "127.0.0.1", headers: headers("203.0.113.9, bogus, 10.1.2.3")) == "10.1.2.3")
        // Only trusted hops: the left-most. No header: the peer.
        #expect(resolver.resolve(peer: "127.0.0.1", headers: headers("10.9.9.9")) == "10.9.9.9")
        #expect(resolver.resolve(peer: "127.0.0.1", headers: [:]) == "127.0.0.1")
        #expect(resolver.resolve(peer: nil, headers: headers("203.0.113.9")) == "unknown")
        // IPv6 clients count per /64: a fresh address in the same /64 is the same client.
        #expect(resolver.resolve(peer: "2001:db8:1:2:aaaa::1", headers: [:]) == "2001:db8:1:2::/64")
        #expect(resolver.resolve(peer: "127.0.0.1", headers: headers("2001:db8:1:2:ffff::9")) == "2001:db8:1:2::/64")
        #expect(resolver.resolve(peer: "::ffff:198.51.100.1", headers: [:]) == "198.51.100.1")
        #expect(LockoutSubjects.address("2001:DB8:1:2::77") == "address:2001:db8:1:2::/64")
        #expect(LockoutSubjects.address("2001:db8:1:2::/64") == "address:2001:db8:1:2::/64")
        #expect(LockoutSubjects.address("192.0.2.1") == "address:192.0.2.1")
        #expect(LockoutSubjects.address("nope") == nil)
    }
}
