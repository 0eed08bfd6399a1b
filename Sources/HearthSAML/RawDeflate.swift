import CXMLSecSupport

/// Raw DEFLATE (RFC 1951) by zlib, for the Redirect binding.
enum RawDeflate {
    /// `bytes` deflated.
    static func deflate(_ bytes: [UInt8]) throws(SAMLError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: bytes.count + bytes.count / 8 + 64)
        let written = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { hearth_raw_deflate(input.baseAddress, input.count, $0.baseAddress, $0.count) }
        }
        guard written >= 0 else { throw .requestFailed("DEFLATE failed") }
        return Array(output.prefix(written))
    }
}
