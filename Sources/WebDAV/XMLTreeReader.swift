import CLibXML2
import Foundation

/// An element read with its place, for errors that name where.
struct XMLNode {
    var element: DAVElement
    var line: Int
    var column: Int
    var nodes: [XMLNode]
}

/// libxml2's SAX2 push parser, namespaces processed, into a tree, within
/// `MultistatusLimits`; DTDs refused before parsing and entity
/// declarations while parsing (a DTD has no place in a WebDAV reply, and
/// entities are how a small reply becomes a huge one), the network never
/// used. libxml2 itself rather than FoundationXML's XMLParser on it, which
/// leaks an error object for every error libxml2 raises (Swift 6.3.1:
/// about 2 KB a malformed reply, found by the webdav fuzz target) and
/// copies every name and text through NSString.
final class XMLTreeReader {
    private let limits: MultistatusLimits
    private var stack: [XMLNode] = []
    private var root: XMLNode?
    private var elements = 0
    private var textBytes = 0
    private var failure: WebDAVError?
    /// The parser, while it runs: where it is, for the nodes and errors.
    private var context: xmlParserCtxtPtr?
    /// The first error libxml2 raised (its xmlParserErrors code).
    private var firstError: Int32?

    private init(limits: MultistatusLimits) {
        self.limits = limits
    }

    static func read(_ bytes: [UInt8], limits: MultistatusLimits) throws(WebDAVError) -> XMLNode {
        guard bytes.count <= limits.maximumSize else {
            throw WebDAVError(code: .tooLarge, description: "the reply is \(bytes.count) bytes, more than the limit of \(limits.maximumSize)")
        }
        // A reply is UTF-8 (Chime's text is): one that is not is refused with its place, whatever its declaration says
        // (FoundationXML's XMLParser, read through before libxml2, trapped on such a name; found by the fuzz target).
        if let bad = firstInvalidUTF8(bytes) {
            let (line, column) = position(of: bad, in: bytes)
            throw WebDAVError(code: .malformed, description: "the reply is not UTF-8 at line \(line), column \(column) (byte \(bad + 1))", line: line, column: column)
        }
        // A reply may open with its XML declaration and hold no other "<?" (even in CDATA, where
        // WebDAV's calendar data never has one): XMLParser crashed on a processing instruction with
        // no data (found by the fuzz target), and a WebDAV reply has no use for one.
        let declaration = Array("<?xml".utf8), opening = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var searched = 0
        while let found = firstIndex(of: Array("<?".utf8), in: Array(bytes[searched...])).map({ $0 + searched }) {
            let isDeclaration = found == opening && bytes[found...].starts(with: declaration) && found + 5 < bytes.count
                && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[found + 5])
            if !isDeclaration {
                let (line, column) = position(of: found, in: bytes)
                throw WebDAVError(code: .malformed, description: "the reply has a processing instruction (<?) at line \(line), column \(column); a WebDAV reply has only its XML declaration",
                                  line: line, column: column)
            }
            searched = found + 2
        }
        // Any DTD is refused before parsing, and an entity declaration while parsing, should one get past.
        if let start = firstIndex(of: Array("<!DOCTYPE".utf8), in: bytes) {
            let (line, column) = position(of: start, in: bytes)
            throw WebDAVError(code: .malformed, description: "the reply has a DTD (<!DOCTYPE) at line \(line), column \(column); a WebDAV reply has none, and its entities are how a small reply becomes a huge one",
                              line: line, column: column)
        }
        let reader = XMLTreeReader(limits: limits)
        return try withExtendedLifetime(reader) { () throws(WebDAVError) -> XMLNode in try reader.parse(mendingControlCharacters(bytes)) }
    }

    private func parse(_ bytes: [UInt8]) throws(WebDAVError) -> XMLNode {
        var handler = xmlSAXHandler()
        handler.initialized = clibxml2_sax2_magic()
        handler.startElementNs = { user, name, _, namespace, _, _, count, _, attributes in
            XMLTreeReader.reader(user)?.start(name, namespace, count, attributes)
        }
        handler.endElementNs = { user, _, _, _ in XMLTreeReader.reader(user)?.end() }
        handler.characters = { user, text, length in XMLTreeReader.reader(user)?.take(text, length) }
        handler.cdataBlock = { user, text, length in XMLTreeReader.reader(user)?.take(text, length) }
        handler.entityDecl = { user, name, _, _, _, _ in
            let entity = name.map { String(cString: $0) } ?? ""
            XMLTreeReader.reader(user)?.fail(.malformed, "the reply declares the entity '\(entity)'; a WebDAV reply has no DTD")
        }
        // Structured: errors come here rather than to standard error. Warnings (DAV:'s relative namespace URI) are not errors.
        handler.serror = { user, error in
            guard let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue, let reader = XMLTreeReader.reader(user) else { return }
            if reader.firstError == nil { reader.firstError = error.pointee.code }
        }
        xmlInitParser()
        let user = Unmanaged.passUnretained(self).toOpaque()
        guard let parser = xmlCreatePushParserCtxt(&handler, user, nil, 0, nil) else {
            throw WebDAVError(code: .malformed, description: "libxml2 could not start a parser")
        }
        defer {
            context = nil
            xmlFreeParserCtxt(parser)
        }
        context = parser
        // NOENT: with DTDs refused, only character references and the five predefined entities can be replaced.
        _ = xmlCtxtUseOptions(parser, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOENT.rawValue))
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { xmlParseChunk(parser, $0.baseAddress, Int32(buffer.count), 1) }
        }
        if let failure { throw failure }
        guard status == 0, firstError == nil, let root else {
            let (line, column) = place
            throw WebDAVError(code: .malformed, description: "the reply is not well-formed XML at line \(line), column \(column) (libxml2 error \(firstError ?? status))",
                              line: line, column: column)
        }
        return root
    }

    private static func reader(_ user: UnsafeMutableRawPointer?) -> XMLTreeReader? {
        user.map { Unmanaged<XMLTreeReader>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Where the parser is: 1-based line and column.
    private var place: (line: Int, column: Int) {
        guard let context else { return (0, 0) }
        return (Int(xmlSAX2GetLineNumber(context)), Int(xmlSAX2GetColumnNumber(context)))
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
        let (line, column) = place
        failure = WebDAVError(code: code, description: "\(message) at line \(line), column \(column)", line: line, column: column)
        if let context { xmlStopParser(context) }
    }

    private static func text(_ bytes: UnsafePointer<xmlChar>, count: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    private func start(_ name: UnsafePointer<xmlChar>?, _ namespace: UnsafePointer<xmlChar>?, _ count: Int32,
                       _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        guard failure == nil else { return }
        elements += 1
        guard elements <= limits.maximumElements else { return fail(.tooLarge, "more than \(limits.maximumElements) elements") }
        guard stack.count < limits.maximumDepth else { return fail(.tooLarge, "elements nested more than \(limits.maximumDepth) deep") }
        // Five pointers an attribute: local name, prefix, namespace, and the value's start and end.
        // CalDAV's attributes have no namespace, so the local name is the key.
        var local: [String: String] = [:]
        if let attributes {
            for index in 0..<max(0, Int(count)) {
                guard let name = attributes[5 * index], let value = attributes[5 * index + 3], let end = attributes[5 * index + 4] else { continue }
                local[String(cString: name)] = Self.text(value, count: max(0, end - value))
            }
        }
        let element = DAVElement(name: DAVName(namespace.map { String(cString: $0) } ?? "", name.map { String(cString: $0) } ?? ""),
                                 attributes: local)
        let (line, column) = place
        stack.append(XMLNode(element: element, line: line, column: column, nodes: []))
    }

    private func end() {
        guard failure == nil, var node = stack.popLast() else { return }
        node.element.children = node.nodes.map(\.element)
        if stack.isEmpty {
            root = node
        } else {
            stack[stack.count - 1].nodes.append(node)
        }
    }

    private func take(_ text: UnsafePointer<xmlChar>?, _ length: Int32) {
        guard failure == nil, !stack.isEmpty, let text, length > 0 else { return }
        textBytes += Int(length)
        guard textBytes <= limits.maximumSize else { return fail(.tooLarge, "more than \(limits.maximumSize) bytes of text") }
        stack[stack.count - 1].element.text += Self.text(text, count: Int(length))
    }
}
