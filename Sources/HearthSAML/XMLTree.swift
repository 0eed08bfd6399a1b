import CXMLSec
import CXMLSecSupport
import Foundation

/// A document libxml2 parsed, freed with this value. Its elements (``XMLElement``) are valid while it lives.
final class XMLTree {
    let document: xmlDocPtr

    /// Parses `bytes` without network, DTD loading or entity substitution (CXMLSecSupport's `hearth_xml_parse`).
    /// - Throws: ``SAMLError/documentTypeDeclaration`` for any DOCTYPE, ``SAMLError/notWellFormed(_:)`` otherwise.
    init(parsing bytes: [UInt8]) throws(SAMLError) {
        try XMLSecurityLibrary.ready()
        guard bytes.count < Int(Int32.max) else { throw .tooLarge(bytes.count) }
        var refusal: Int32 = 0
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { hearth_xml_parse($0.baseAddress, Int32($0.count), &refusal) }
        }
        guard let parsed else {
            if refusal == Int32(HEARTH_XML_DOCTYPE) { throw .documentTypeDeclaration }
            throw .notWellFormed("libxml2 refused it")
        }
        document = parsed.assumingMemoryBound(to: xmlDoc.self)
    }

    deinit { xmlFreeDoc(document) }

    /// The root element.
    var root: XMLElement? { xmlDocGetRootElement(document).map(XMLElement.init) }

    /// The element whose registered ID (`xmlAddID`, or an `xml:id`) is `id`.
    func element(withID id: String) -> XMLElement? {
        guard let attribute = xmlGetID(document, id), let parent = attribute.pointee.parent else { return nil }
        return XMLElement(node: parent)
    }

    /// Registers the unnamespaced `ID` attribute of `element` and of every element below it as an XML ID, so
    /// that a signature's `#id` reference finds it (libxml2 knows no schema).
    /// - Throws: ``SAMLError/duplicateID(_:)`` when an ID is already registered: IDs must be unique.
    func registerIDs(under element: XMLElement) throws(SAMLError) {
        for candidate in [element] + element.descendants {
            guard let attribute = xmlHasNsProp(candidate.node, "ID", nil) else { continue }
            let value = candidate.attribute("ID") ?? ""
            guard !value.isEmpty else { throw .malformed("empty ID attribute on \(candidate.name)") }
            guard xmlAddID(nil, document, value, attribute) != nil else { throw .duplicateID(value) }
        }
    }
}

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
