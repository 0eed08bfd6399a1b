import Foundation
import HearthPythonScripts
import Testing

@testable import HearthConsole

/// The console's own QR encoder read back by an independent decoder (zxing-cpp, `scripts/qr-decode.py`): texts from one
/// byte to the most version 20 holds, through every version boundary the authenticator links cross, and bytes that are
/// not ASCII.
@Suite("Console QR codes")
struct ConsoleQRCodeTests {
    @Test("zxing-cpp reads back what QRCode encodes, at each size", arguments: [1, 14, 15, 26, 60, 106, 122, 123, 152, 180, 300, 500, 666])
    func decodedByZXing(length: Int) throws {
        let text = String(
            String(repeating: "otpauth://totp/Hearth%20console:ops@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Hearth&", count: 10).prefix(length))
        try Self.roundTrip(Array(text.utf8))
    }

    @Test("bytes that are not ASCII, and every byte value, come back as they went in")
    func binary() throws {
        try Self.roundTrip(Array("Grüße, 東京 ✓".utf8))
        try Self.roundTrip((0...255).map { UInt8($0) })
    }

    @Test("more than version 20 holds is refused; the SVG draws the modules with a quiet zone and a label")
    func limitsAndSVG() throws {
        #expect(QRCode(Array(repeating: 65, count: 667)) == nil)
        let code = try #require(QRCode(Array("otpauth://totp/x?secret=AAAA".utf8)))
        let svg = code.svg(label: "QR code of the link")
        #expect(svg.hasPrefix("<svg class=\"qr\"") && svg.contains("viewBox=\"0 0 \(code.size + 8) \(code.size + 8)\""))
        #expect(svg.contains("aria-label=\"QR code of the link\""))
        #expect(svg.components(separatedBy: "h1v1h-1z").count - 1 == code.modules.joined().filter { $0 }.count)
    }

    static func roundTrip(_ bytes: [UInt8]) throws {
        let code = try #require(QRCode(bytes), "\(bytes.count) bytes")
        let rows = code.modules.map { row in String(row.map { $0 ? "1" : "0" }) }.joined(separator: "\n")
        let output = try PythonScript("qr-decode.py").run([], input: Data(rows.utf8))
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        #expect(lines.first.map(String.init) == hex, "version \(code.version), \(bytes.count) bytes")
    }
}
