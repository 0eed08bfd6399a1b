import Foundation

extension Data {
    /// Lower-case hexadecimal.
    var hexString: String { map { String(format: "%02x", $0) }.joined() }
}
