import CXMLSec
import CXMLSecSupport
import Foundation

/// libxml2 helpers of the sandbox SAML IdP.
enum SandboxSAMLXML {
    static let protocolNamespace = "urn:oasis:names:tc:SAML:2.0:protocol"
    static let assertionNamespace = "urn:oasis:names:tc:SAML:2.0:assertion"

    static func isNamed(_ node: xmlNodePtr, _ name: String, in namespace: String) -> Bool {
        String(cString: node.pointee.name) == name && node.pointee.ns?.pointee.href.map { String(cString: $0) } == namespace
    }

    static func attribute(_ node: xmlNodePtr, _ name: String) -> String? {
        guard xmlHasNsProp(node, name, nil) != nil, let value = xmlGetNoNsProp(node, name) else { return nil }
        defer { cxmlsec_free(value) }
        return String(cString: value)
    }

    static func children(_ node: xmlNodePtr) -> [xmlNodePtr] {
        var found: [xmlNodePtr] = []
        var cursor = node.pointee.children
        while let child = cursor {
            if child.pointee.type == XML_ELEMENT_NODE { found.append(child) }
            cursor = child.pointee.next
        }
        return found
    }

    /// `value` escaped for element content and double-quoted attributes.
    static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
