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
