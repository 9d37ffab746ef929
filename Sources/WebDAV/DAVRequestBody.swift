/// The XML bodies of the requests a CalDAV client sends, namespaced and
/// escaped: PROPFIND (RFC 4918 §9.1), calendar-query and calendar-multiget
/// (RFC 4791 §7.8, §7.9) and sync-collection (RFC 6578 §3.2). Each is UTF-8
/// with its XML declaration, to send as `application/xml; charset=utf-8`.
public enum DAVRequestBody {
    public static let contentType = "application/xml; charset=utf-8"

    /// PROPFIND for the named properties.
    public static func propfind(_ properties: [DAVName]) -> [UInt8] {
        document(.dav("propfind"), properties) { writer in writer.properties(properties) }
    }

    /// calendar-query for every `component` (VEVENT, VTODO) in the
    /// collection, optionally overlapping [start, end) (UTC, as
    /// `20261201T000000Z`).
    public static func calendarQuery(component: String, properties: [DAVName], start: String? = nil, end: String? = nil) -> [UInt8] {
        document(.calDAV("calendar-query"), properties) { writer in
            writer.properties(properties)
            writer.open(.calDAV("filter"))
            writer.open(.calDAV("comp-filter"), ["name": "VCALENDAR"])
            writer.open(.calDAV("comp-filter"), ["name": component])
            if start != nil || end != nil {
                var range: [String: String] = [:]
                if let start { range["start"] = start }
                if let end { range["end"] = end }
                writer.empty(.calDAV("time-range"), range)
            }
            writer.close(.calDAV("comp-filter"))
            writer.close(.calDAV("comp-filter"))
            writer.close(.calDAV("filter"))
        }
    }

    /// calendar-multiget of the resources at `hrefs` (sent as the server
    /// gave them: still percent-encoded).
    public static func calendarMultiget(_ hrefs: [String], properties: [DAVName]) -> [UInt8] {
        document(.calDAV("calendar-multiget"), properties) { writer in
            writer.properties(properties)
            for href in hrefs { writer.text(.dav("href"), href) }
        }
    }

    /// sync-collection from `token` (nil: the initial sync, every member),
    /// depth 1, at most `limit` results when given (the server may truncate
    /// with 507 anyway).
    public static func syncCollection(token: String?, properties: [DAVName], limit: Int? = nil) -> [UInt8] {
        document(.dav("sync-collection"), properties) { writer in
            writer.text(.dav("sync-token"), token ?? "")
            writer.text(.dav("sync-level"), "1")
            if let limit {
                writer.open(.dav("limit"))
                writer.text(.dav("nresults"), String(limit))
                writer.close(.dav("limit"))
            }
            writer.properties(properties)
        }
    }

    private static func document(_ root: DAVName, _ properties: [DAVName], _ body: (inout XMLWriter) -> Void) -> [UInt8] {
        var writer = XMLWriter(namespaces: [root.namespace, DAVName.dav] + properties.map(\.namespace))
        writer.open(root, declaringNamespaces: true)
        body(&writer)
        writer.close(root)
        return Array(writer.text.utf8)
    }
}

/// Elements with a prefix per namespace, declared once on the root.
struct XMLWriter {
    private(set) var text = #"<?xml version="1.0" encoding="utf-8"?>"#
    private var prefixes: [String: String] = [:]
    private var order: [String] = []

    init(namespaces: [String]) {
        let known = [DAVName.dav: "D", DAVName.calDAV: "C", DAVName.calendarServer: "CS"]
        for namespace in namespaces where prefixes[namespace] == nil {
            prefixes[namespace] = known[namespace] ?? "N\(order.count)"
            order.append(namespace)
        }
    }

    private func qualified(_ name: DAVName) -> String { "\(prefixes[name.namespace] ?? "D"):\(name.name)" }

    private func attributes(_ values: [String: String]) -> String {
        values.sorted { $0.key < $1.key }.map { " \($0.key)=\"\(Self.escaped($0.value))\"" }.joined()
    }

    mutating func open(_ name: DAVName, _ values: [String: String] = [:], declaringNamespaces: Bool = false) {
        let declarations = declaringNamespaces ? order.map { " xmlns:\(prefixes[$0]!)=\"\(Self.escaped($0))\"" }.joined() : ""
        text += "<\(qualified(name))\(declarations)\(attributes(values))>"
    }

    mutating func close(_ name: DAVName) { text += "</\(qualified(name))>" }

    mutating func empty(_ name: DAVName, _ values: [String: String] = [:]) { text += "<\(qualified(name))\(attributes(values))/>" }

    mutating func text(_ name: DAVName, _ content: String) {
        text += content.isEmpty ? "<\(qualified(name))/>" : "<\(qualified(name))>\(Self.escaped(content))</\(qualified(name))>"
    }

    mutating func properties(_ names: [DAVName]) {
        open(.dav("prop"))
        for name in names { empty(name) }
        close(.dav("prop"))
    }

    /// The five characters XML gives meaning to, as entities; control
    /// characters XML 1.0 cannot hold at all become U+FFFD.
    static func escaped(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
