import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An element read with its place, for errors that name where.
struct XMLNode {
    var element: DAVElement
    var line: Int
    var column: Int
    var nodes: [XMLNode]
}

/// XMLParser (libxml2) with namespaces processed, into a tree, within
/// `MultistatusLimits`; entity declarations refused (a DTD has no place in
/// a WebDAV reply, and entities are how a small reply becomes a huge one).
final class XMLTreeReader: NSObject, XMLParserDelegate {
    private let limits: MultistatusLimits
    private var stack: [XMLNode] = []
    private var root: XMLNode?
    private var elements = 0
    private var textBytes = 0
    private var failure: WebDAVError?
    private weak var parser: XMLParser?

    private init(limits: MultistatusLimits) {
        self.limits = limits
    }

    static func read(_ bytes: [UInt8], limits: MultistatusLimits) throws(WebDAVError) -> XMLNode {
        guard bytes.count <= limits.maximumSize else {
            throw WebDAVError(.tooLarge, "the reply is \(bytes.count) bytes, more than the limit of \(limits.maximumSize)")
        }
        // FoundationXML traps on a name that is not UTF-8 (seen with 0xFF in an element name): refuse such a reply first.
        if let bad = firstInvalidUTF8(bytes) {
            let (line, column) = position(of: bad, in: bytes)
            throw WebDAVError(.malformed, "the reply is not UTF-8 at line \(line), column \(column) (byte \(bad + 1))", line: line, column: column)
        }
        // FoundationXML crashes (strlen of NULL) on a processing instruction with no data: a
        // reply may open with its XML declaration and hold no other "<?" (even in CDATA, where
        // WebDAV's calendar data never has one).
        let declaration = Array("<?xml".utf8), opening = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var searched = 0
        while let found = firstIndex(of: Array("<?".utf8), in: Array(bytes[searched...])).map({ $0 + searched }) {
            let isDeclaration = found == opening && bytes[found...].starts(with: declaration) && found + 5 < bytes.count
                && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[found + 5])
            if !isDeclaration {
                let (line, column) = position(of: found, in: bytes)
                throw WebDAVError(.malformed, "the reply has a processing instruction (<?) at line \(line), column \(column); a WebDAV reply has only its XML declaration",
                                  line: line, column: column)
            }
            searched = found + 2
        }
        // XMLParser here reports no entity declarations to its delegate: refuse any DTD before parsing.
        if let start = firstIndex(of: Array("<!DOCTYPE".utf8), in: bytes) {
            let (line, column) = position(of: start, in: bytes)
            throw WebDAVError(.malformed, "the reply has a DTD (<!DOCTYPE) at line \(line), column \(column); a WebDAV reply has none, and its entities are how a small reply becomes a huge one",
                              line: line, column: column)
        }
        let reader = XMLTreeReader(limits: limits)
        let parser = XMLParser(data: Data(mendingControlCharacters(bytes)))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        reader.parser = parser
        let parsed = withExtendedLifetime(reader) { parser.parse() }
        if let failure = reader.failure { throw failure }
        guard parsed, let root = reader.root else {
            let code = (parser.parserError as NSError?)?.code ?? 0
            let line = parser.lineNumber, column = parser.columnNumber
            throw WebDAVError(.malformed, "the reply is not well-formed XML at line \(line), column \(column) (libxml2 error \(code))",
                              line: line, column: column)
        }
        return root
    }

    /// The reply with each control character XML 1.0 cannot hold (C0 but
    /// tab, line feed and carriage return) as U+FFFD. A server that copies
    /// one from an item into its reply (a bell in a SUMMARY) makes the
    /// whole reply ill-formed, and one item would fail the collection; so
    /// mended, the item reads, and the iCalendar reader says what it found.
    /// Bytes below 0x80 are never part of a longer UTF-8 sequence, so the
    /// rest is untouched; columns after a mended byte count two more.
    static func mendingControlCharacters(_ bytes: [UInt8]) -> [UInt8] {
        func isBad(_ byte: UInt8) -> Bool { byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D }
        guard bytes.contains(where: isBad) else { return bytes }
        var mended: [UInt8] = []
        mended.reserveCapacity(bytes.count + 16)
        for byte in bytes {
            if isBad(byte) { mended += [0xEF, 0xBF, 0xBD] } else { mended.append(byte) }
        }
        return mended
    }

    /// 1-based line and column (in bytes) of the byte at `offset`.
    private static func position(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        let before = bytes[..<offset]
        return (before.filter { $0 == 10 }.count + 1, offset - (before.lastIndex(of: 10).map { $0 + 1 } ?? 0) + 1)
    }

    /// The offset of the first byte that does not start or continue a
    /// well-formed UTF-8 sequence (RFC 3629: no overlongs, surrogates or
    /// values past U+10FFFF), or nil.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int, low: UInt8, high: UInt8
            switch lead {
            case 0x00...0x7F: index += 1; continue
            case 0xC2...0xDF: (length, low, high) = (2, 0x80, 0xBF)
            case 0xE0: (length, low, high) = (3, 0xA0, 0xBF)
            case 0xED: (length, low, high) = (3, 0x80, 0x9F)
            case 0xE1...0xEF: (length, low, high) = (3, 0x80, 0xBF)
            case 0xF0: (length, low, high) = (4, 0x90, 0xBF)
            case 0xF4: (length, low, high) = (4, 0x80, 0x8F)
            case 0xF1...0xF3: (length, low, high) = (4, 0x80, 0xBF)
            default: return index
            }
            guard index + length <= bytes.count, (low...high).contains(bytes[index + 1]) else { return index }
            for next in (index + 2)..<(index + length) where !(0x80...0xBF).contains(bytes[next]) { return index }
            index += length
        }
        return nil
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }

    private func fail(_ code: WebDAVError.Code, _ message: String) {
        guard failure == nil else { return }
        let line = parser?.lineNumber ?? 0, column = parser?.columnNumber ?? 0
        failure = WebDAVError(code, "\(message) at line \(line), column \(column)", line: line, column: column)
        parser?.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        guard failure == nil else { return }
        elements += 1
        guard elements <= limits.maximumElements else { return fail(.tooLarge, "more than \(limits.maximumElements) elements") }
        guard stack.count < limits.maximumDepth else { return fail(.tooLarge, "elements nested more than \(limits.maximumDepth) deep") }
        // Attribute names may come prefixed; CalDAV's have no namespace, so the local name is the key.
        var local: [String: String] = [:]
        for (name, value) in attributes { local[String(name.split(separator: ":").last ?? Substring(name))] = value }
        let element = DAVElement(name: DAVName(namespaceURI ?? "", elementName), attributes: local)
        stack.append(XMLNode(element: element, line: parser.lineNumber, column: parser.columnNumber, nodes: []))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard failure == nil, var node = stack.popLast() else { return }
        node.element.children = node.nodes.map(\.element)
        if stack.isEmpty {
            root = node
        } else {
            stack[stack.count - 1].nodes.append(node)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { take(string) }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) { take(String(decoding: CDATABlock, as: UTF8.self)) }

    private func take(_ text: String) {
        guard failure == nil, !stack.isEmpty else { return }
        textBytes += text.utf8.count
        guard textBytes <= limits.maximumSize else { return fail(.tooLarge, "more than \(limits.maximumSize) bytes of text") }
        stack[stack.count - 1].element.text += text
    }

    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        fail(.malformed, "the reply declares the entity '\(name)'; a WebDAV reply has no DTD")
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        fail(.malformed, "the reply declares the external entity '\(name)'; a WebDAV reply has no DTD")
    }
}
