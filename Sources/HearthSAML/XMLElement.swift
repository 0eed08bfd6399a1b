import CXMLSec
import Foundation

/// An element of an ``XMLTree``, by pointer: valid while the tree lives, compared by identity.
struct XMLElement: Equatable {
    let node: xmlNodePtr

    /// The local name.
    var name: String { String(cString: node.pointee.name) }

    /// The namespace URI, if any.
    var namespace: String? { node.pointee.ns.flatMap { $0.pointee.href.map { String(cString: $0) } } }

    /// Whether this is `name` in `namespace`.
    func isNamed(_ name: String, in namespace: String) -> Bool { self.name == name && self.namespace == namespace }

    /// The value of the unnamespaced attribute `name`.
    func attribute(_ name: String) -> String? {
        guard xmlHasNsProp(node, name, nil) != nil, let value = xmlGetNoNsProp(node, name) else { return nil }
        defer { cxmlsec_free(value) }
        return String(cString: value)
    }

    /// The element children, in order.
    var children: [XMLElement] {
        var found: [XMLElement] = []
        var cursor = node.pointee.children
        while let child = cursor {
            if child.pointee.type == XML_ELEMENT_NODE { found.append(XMLElement(node: child)) }
            cursor = child.pointee.next
        }
        return found
    }

    /// The element children named `name` in `namespace`.
    func children(_ name: String, in namespace: String) -> [XMLElement] {
        children.filter { $0.isNamed(name, in: namespace) }
    }

    /// The only child named `name` in `namespace`; `nil` when there is none.
    /// - Throws: ``SAMLError/malformed(_:)`` when there are several.
    func onlyChild(_ name: String, in namespace: String) throws(SAMLError) -> XMLElement? {
        let found = children(name, in: namespace)
        guard found.count <= 1 else { throw .malformed("\(self.name) with \(found.count) \(name) elements") }
        return found.first
    }

    /// Every element below this one, in document order.
    var descendants: [XMLElement] {
        var found: [XMLElement] = []
        for child in children {
            found.append(child)
            found.append(contentsOf: child.descendants)
        }
        return found
    }

    /// The element's whole text: every text and CDATA node below it joined, comments and processing
    /// instructions skipped (`<NameID>a<!---->b</NameID>` reads `ab`, never `a`).
    var text: String {
        guard let content = xmlNodeGetContent(node) else { return "" }
        defer { cxmlsec_free(content) }
        return String(cString: content)
    }

    /// The parent element, if the parent is one.
    var parent: XMLElement? {
        guard let parent = node.pointee.parent, parent.pointee.type == XML_ELEMENT_NODE else { return nil }
        return XMLElement(node: parent)
    }
}
