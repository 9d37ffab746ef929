/// One property as one unfolded content line (RFC 5545 §3.1), and back:
/// how an item's unmodelled properties are kept as text
/// (`ICalendarOrigin.unmodelled`) and read again for export.
extension ICalendarProperty {
    /// `NAME;PARAM=value,"quoted; value":value`, without a line break and
    /// unfolded. A parameter value is quoted when it holds `;`, `:` or `,`;
    /// RFC 6868 escapes stand for a line break (`^n`), `^` (`^^`) and `"` (`^'`).
    public var contentLine: String {
        var line = name
        for parameter in parameters {
            line += ";" + parameter.name + "="
            line += parameter.values.map(Self.parameterText).joined(separator: ",")
        }
        return line + ":" + value
    }

    static func parameterText(_ value: String) -> String {
        var escaped = ""
        var needsQuotes = false
        for scalar in value.unicodeScalars {
            switch scalar {
            case "^": escaped += "^^"
            case "\"": escaped += "^'"
            case "\n": escaped += "^n"
            case "\r": continue
            case ";", ":", ",": needsQuotes = true; escaped.unicodeScalars.append(scalar)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return needsQuotes ? "\"" + escaped + "\"" : escaped
    }

    /// Reads one unfolded content line; `line` is where it stood. Throws
    /// when there is no name or no colon after the parameters.
    public init(contentLine text: some StringProtocol, line: Int = 0) throws(ICalendarValueError) {
        let scalars = Array(String(text).unicodeScalars)
        func fail(_ reason: String) -> ICalendarValueError {
            ICalendarValueError(value: String(text), line: line, reason: reason)
        }
        func isNameScalar(_ s: Unicode.Scalar) -> Bool {
            s == "-" || ("A"..."Z").contains(s) || ("a"..."z").contains(s) || ("0"..."9").contains(s)
        }
        var index = 0
        func name() -> String {
            var result = String.UnicodeScalarView()
            while index < scalars.count, isNameScalar(scalars[index]) {
                result.append(scalars[index])
                index += 1
            }
            return String(result).uppercased()
        }
        let propertyName = name()
        guard !propertyName.isEmpty else { throw fail("is not a content line: it does not start with a name") }
        var parameters: [ICalendarParameter] = []
        while index < scalars.count, scalars[index] == ";" {
            index += 1
            let parameterName = name()
            guard !parameterName.isEmpty, index < scalars.count, scalars[index] == "=" else {
                throw fail("has a parameter without a name and '='")
            }
            index += 1
            var values: [String] = []
            repeat {
                if index < scalars.count, scalars[index] == "," { index += 1 }
                var value = String.UnicodeScalarView()
                let quoted = index < scalars.count && scalars[index] == "\""
                if quoted { index += 1 }
                while index < scalars.count {
                    let scalar = scalars[index]
                    if quoted ? scalar == "\"" : (scalar == ";" || scalar == ":" || scalar == ",") { break }
                    value.append(scalar)
                    index += 1
                }
                if quoted {
                    guard index < scalars.count else { throw fail("has a quoted parameter value without its closing quote") }
                    index += 1
                }
                values.append(Self.unescapeParameter(String(value)))
            } while index < scalars.count && scalars[index] == ","
            parameters.append(ICalendarParameter(name: parameterName, values: values))
        }
        guard index < scalars.count, scalars[index] == ":" else { throw fail("has no ':' before its value") }
        var value = String.UnicodeScalarView()
        value.append(contentsOf: scalars[(index + 1)...])
        self.init(name: propertyName, parameters: parameters, value: String(value), line: line)
    }

    /// RFC 6868: `^n` a line break, `^^` a caret, `^'` a double quote; any
    /// other caret stays as it is.
    static func unescapeParameter(_ value: String) -> String {
        guard value.contains("^") else { return value }
        var out = String.UnicodeScalarView()
        var caret = false
        for scalar in value.unicodeScalars {
            if caret {
                caret = false
                switch scalar {
                case "n", "N": out.append("\n")
                case "^": out.append("^")
                case "'": out.append("\"")
                default: out.append("^"); out.append(scalar)
                }
            } else if scalar == "^" {
                caret = true
            } else {
                out.append(scalar)
            }
        }
        if caret { out.append("^") }
        return String(out)
    }
}

extension ICalendarComponent {
    /// Properties and components as unfolded content lines, each ending in
    /// CR LF: the form of `ICalendarOrigin.unmodelled` and `Alarm.unmodelled`.
    public static func unmodelledText(properties: [ICalendarProperty], components: [ICalendarComponent]) -> String {
        var text = ""
        for property in properties { text += property.contentLine + "\r\n" }
        for component in components { text += component.unfoldedText }
        return text
    }

    /// The component as unfolded content lines, BEGIN to END, each ending in CR LF.
    public var unfoldedText: String {
        "BEGIN:\(name)\r\n" + Self.unmodelledText(properties: properties, components: components) + "END:\(name)\r\n"
    }

    /// The deepest nesting `readUnmodelled` follows.
    public static let maximumUnmodelledDepth = 16

    /// Reads back what `unmodelledText` wrote: top-level properties, then
    /// the components among them.
    public static func readUnmodelled(_ text: String) throws(ICalendarValueError) -> (properties: [ICalendarProperty], components: [ICalendarComponent]) {
        var stack = [ICalendarComponent(name: "UNMODELLED")]
        var number = 0
        for raw in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }) {
            number += 1
            let property = try ICalendarProperty(contentLine: raw, line: number)
            if property.name == "BEGIN" {
                guard stack.count <= maximumUnmodelledDepth else {
                    throw ICalendarValueError(property: "BEGIN", value: property.value, line: number, reason: "nests deeper than \(maximumUnmodelledDepth) components")
                }
                stack.append(ICalendarComponent(name: property.value, line: number))
            } else if property.name == "END" {
                guard stack.count > 1, stack[stack.count - 1].name == property.value.uppercased() else {
                    throw ICalendarValueError(property: "END", value: property.value, line: number, reason: "ends a component that was not begun")
                }
                let done = stack.removeLast()
                stack[stack.count - 1].components.append(done)
            } else {
                stack[stack.count - 1].properties.append(property)
            }
        }
        guard stack.count == 1 else {
            throw ICalendarValueError(property: "BEGIN", value: stack[stack.count - 1].name, line: stack[stack.count - 1].line, reason: "is never ended")
        }
        return (stack[0].properties, stack[0].components)
    }
}
