import Foundation

/// Reads the base64 inside PEM armour (or bare base64, as Firebase's `x509Certificate` may be) into DER.
enum PEMText {
    /// The DER of the first PEM block labelled `label` in `text`, or of `text` itself when it is bare base64.
    static func der(_ text: String, label: String) -> [UInt8]? {
        var body = Substring(text)
        if let begin = text.range(of: "-----BEGIN \(label)-----") {
            guard let end = text.range(of: "-----END \(label)-----", range: begin.upperBound..<text.endIndex) else { return nil }
            body = text[begin.upperBound..<end.lowerBound]
        }
        // Line breaks and indentation dropped byte by byte (``SAMLServiceProvider/base64WhiteSpace``).
        let compact = body.utf8.filter { !SAMLServiceProvider.base64WhiteSpace.contains($0) }
        guard !compact.isEmpty, let data = Data(base64Encoded: Data(compact)) else { return nil }
        return [UInt8](data)
    }
}
