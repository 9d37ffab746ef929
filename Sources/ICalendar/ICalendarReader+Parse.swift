import Glibc

extension ICalendarReader {
    /// One pass over one input: physical lines are found with memchr,
    /// unfolded into logical lines (copied only when a fold joins them), and
    /// each logical line goes to the component tree being built. A logical
    /// line is handed on one step late, once the next physical line has
    /// shown whether it continues it (RFC folding or bad folding).
    struct Parse {
        let input: UnsafeBufferPointer<UInt8>
        let limits: Limits
        var stack: [Frame] = []
        var done: [ICalendarComponent] = []
        var problems: [Problem] = []
        var warnings: [Warning] = []
        var componentCount = 0
        var propertyCount = 0
        /// LF, or CR for an input that has no LF.
        var lineEnd = ICalendarContentLine.lineFeed
        /// The pending logical line's bytes once a fold has joined it; empty otherwise.
        var joined: [UInt8] = []
        /// How many properties the component last closed at each depth had:
        /// the room a new component at that depth is given for its own. Items
        /// of one file are much alike, so that most take one allocation
        /// rather than four or five as the array doubles (65,000
        /// reallocations of a 10,000-event import).
        var propertyCounts: [Int] = []
        /// Takes a top-level VCALENDAR's sound components as they close (see `read(_:handingOver:)`).
        var handOver: ((ICalendarComponent, ICalendarComponent) -> Bool)?
        /// Whether a VCALENDAR's VEVENTs and VTODOs are read for their UID
        /// and RECURRENCE-ID alone (see `read(_:skimmingItems:handingOver:)`).
        var skimsItems = false

        init(input: UnsafeBufferPointer<UInt8>, limits: Limits) {
            self.input = input
            self.limits = limits
        }

        /// An open component and what was wrong in it so far.
        struct Frame {
            var component: ICalendarComponent
            var faults: [(line: Int, reason: String)] = []
            /// Faults past `maximumFaultsPerComponent`, counted, not kept.
            var faultsLeftOut = 0
            var lastFaultLine = 0
            /// An item skimmed, or a component inside one: its lines but BEGIN, END, UID and RECURRENCE-ID are counted, not read.
            var skimmed = false
        }

        /// A logical line not yet handed on.
        struct Pending {
            /// Its span in the input, while no fold has joined it (then it is `joined`).
            var start: Int
            var end: Int
            var isJoined = false
            /// The physical line it starts on.
            var line: Int
            /// Whether a following line that cannot start a content line is
            /// taken as its continuation: it is a property inside a component.
            var joinable: Bool
            /// The length of the name its first physical line starts with, a
            /// `;` or `:` after it (`ICalendarContentLine.nameLength`); 0 when
            /// that line holds no whole name, which unfolding may yet make.
            /// Found once a line, with what the name says, rather than by
            /// each step that asks (a tenth of the reading of a large file).
            var nameLength: Int
            var isBegin: Bool
            var isEnd: Bool
        }

        mutating func run() throws(ICalendarReadError) -> Reading {
            let count = input.count
            guard let base = input.baseAddress, count > 0 else { return Reading(components: []) }
            if count >= 2, (input[0] == 0xFF && input[1] == 0xFE) || (input[0] == 0xFE && input[1] == 0xFF) {
                throw ICalendarReadError(kind: .notUTF8, line: 1, reason: "the input starts with a UTF-16 or UTF-32 byte-order mark: iCalendar is UTF-8")
            }
            var position = count >= 3 && input[0] == 0xEF && input[1] == 0xBB && input[2] == 0xBF ? 3 : 0
            // Classic Mac OS ended lines in CR alone: an input with no LF at
            // all but CRs is read with CR as its line end.
            if memchr(base, Int32(lineEnd), count) == nil, memchr(base, Int32(ICalendarContentLine.carriageReturn), count) != nil {
                lineEnd = ICalendarContentLine.carriageReturn
                warn(Warning(line: 1, kind: .carriageReturnLineEnds, reason: "the lines end in CR alone, read as line ends"))
            }
            var physical = 0
            var pending: Pending?
            // Bounded: each turn consumes at least one byte of the input.
            while position < count {
                physical += 1
                let start = position
                let end: Int
                if let found = memchr(base + position, Int32(lineEnd), count - position) {
                    end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    position = end + 1
                } else {
                    end = count
                    position = count
                }
                var contentEnd = end
                if lineEnd == ICalendarContentLine.lineFeed, contentEnd > start, input[contentEnd - 1] == ICalendarContentLine.carriageReturn { contentEnd -= 1 }
                // A blank line is skipped and does not end the logical line.
                guard contentEnd > start else { continue }
                let first = input[start]
                if first == ICalendarContentLine.space || first == ICalendarContentLine.tab {
                    if var held = pending {
                        try extend(&held, start + 1, contentEnd)
                        pending = held
                    } else {
                        pending = try begin(start + 1, contentEnd, line: physical,
                                            nameLength: ICalendarContentLine.nameLength(UnsafeBufferPointer(rebasing: input[(start + 1)..<contentEnd])))
                    }
                    continue
                }
                let nameLength = ICalendarContentLine.nameLength(UnsafeBufferPointer(rebasing: input[start..<contentEnd]))
                if var held = pending {
                    // A whole name on the line starts a content line; only one without needs the search across folds.
                    if held.joinable, nameLength == 0, !startsContentLine(at: start) {
                        try extend(&held, start, contentEnd)
                        pending = held
                        warn(Warning(line: physical, kind: .badFolding,
                                     reason: "a line without the leading space of a fold is taken as the continuation of line \(held.line)"))
                        continue
                    }
                    try take(held)
                }
                pending = try begin(start, contentEnd, line: physical, nameLength: nameLength)
            }
            if let held = pending { try take(held) }
            closeAll(lastLine: physical)
            // A component's problems are known when it closes, after its
            // children's: put them back in file order (ties in the order found).
            let ordered = problems.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
            return Reading(components: done, problems: ordered, warnings: warnings)
        }

        // MARK: logical lines

        /// A logical line that starts at `start`; `nameLength` is `ICalendarContentLine.nameLength` of its first physical line.
        func begin(_ start: Int, _ end: Int, line: Int, nameLength: Int) throws(ICalendarReadError) -> Pending {
            guard end - start <= limits.lineLength else { throw lineTooLong(line) }
            let span = UnsafeBufferPointer(rebasing: input[start..<end])
            let isBegin = nameLength > 0 && ICalendarContentLine.nameIs(span, length: nameLength, "BEGIN")
            let isEnd = nameLength > 0 && !isBegin && ICalendarContentLine.nameIs(span, length: nameLength, "END")
            let joinable = !stack.isEmpty && nameLength > 0 && !isBegin && !isEnd
            return Pending(start: start, end: end, line: line, joinable: joinable, nameLength: nameLength, isBegin: isBegin, isEnd: isEnd)
        }

        mutating func extend(_ pending: inout Pending, _ start: Int, _ end: Int) throws(ICalendarReadError) {
            let length = pending.isJoined ? joined.count : pending.end - pending.start
            guard length + (end - start) <= limits.lineLength else { throw lineTooLong(pending.line) }
            if !pending.isJoined {
                joined.removeAll(keepingCapacity: true)
                joined.append(contentsOf: UnsafeBufferPointer(rebasing: input[pending.start..<pending.end]))
                pending.isJoined = true
            }
            joined.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<end]))
        }

        func lineTooLong(_ line: Int) -> ICalendarReadError {
            ICalendarReadError(kind: .lineTooLong, line: line, reason: "the content line is longer than \(limits.lineLength) bytes after unfolding")
        }

        /// Whether the text at `start` can begin a content line: a name, then
        /// `;` or `:`, folds within the name allowed.
        func startsContentLine(at start: Int) -> Bool {
            var index = start
            var sawName = false
            // Bounded by the input's end.
            while index < input.count {
                let byte = input[index]
                if ICalendarContentLine.isNameByte(byte) {
                    sawName = true
                    index += 1
                } else if byte == ICalendarContentLine.colon || byte == ICalendarContentLine.semicolon {
                    return sawName
                } else if byte == ICalendarContentLine.carriageReturn, lineEnd == ICalendarContentLine.lineFeed, index + 2 < input.count,
                          input[index + 1] == ICalendarContentLine.lineFeed, isFoldSpace(input[index + 2]) {
                    index += 3
                } else if byte == lineEnd, index + 1 < input.count, isFoldSpace(input[index + 1]) {
                    index += 2
                } else {
                    return false
                }
            }
            return false
        }

        func isFoldSpace(_ byte: UInt8) -> Bool {
            byte == ICalendarContentLine.space || byte == ICalendarContentLine.tab
        }

        mutating func take(_ pending: Pending) throws(ICalendarReadError) {
            guard pending.isJoined else {
                try take(UnsafeBufferPointer(rebasing: input[pending.start..<pending.end]), line: pending.line, known: pending)
                return
            }
            // Moved out while read: take(_:line:) changes self.
            var bytes: [UInt8] = []
            swap(&bytes, &joined)
            defer {
                bytes.removeAll(keepingCapacity: true)
                swap(&bytes, &joined)
            }
            let result = bytes.withUnsafeBufferPointer { line in
                // Folds after a whole name leave it as it was; one with none may have made one.
                Result { () throws(ICalendarReadError) in try take(line, line: pending.line, known: pending.nameLength > 0 ? pending : nil) }
            }
            try result.get()
        }

        // MARK: the component tree

        /// One logical line; `known`, when given, has its name's length and kind already.
        mutating func take(_ line: UnsafeBufferPointer<UInt8>, line number: Int, known: Pending?) throws(ICalendarReadError) {
            let nameLength = known?.nameLength ?? ICalendarContentLine.nameLength(line)
            guard nameLength > 0 else {
                fault(number, "is not a content line (NAME:value): '\(Self.snippet(line))'")
                return
            }
            let isBegin = known?.isBegin ?? ICalendarContentLine.nameIs(line, length: nameLength, "BEGIN")
            let isEnd = known?.isEnd ?? (!isBegin && ICalendarContentLine.nameIs(line, length: nameLength, "END"))
            guard isBegin || isEnd || !stack.isEmpty else {
                warn(Warning(line: number, kind: .outsideComponent,
                                        reason: "the property '\(Self.snippet(line))' is outside any component and is skipped"))
                return
            }
            if !isBegin, !isEnd, stack[stack.count - 1].skimmed, !ICalendarContentLine.nameIs(line, length: nameLength, "UID"),
               !ICalendarContentLine.nameIs(line, length: nameLength, "RECURRENCE-ID") {
                try countProperty(line: number)
                return
            }
            // BEGIN:NAME and END:NAME without parameters, one line in eight:
            // the name read from the bytes, without a property made for it.
            if isBegin || isEnd, nameLength < line.count, line[nameLength] == ICalendarContentLine.colon,
               let name = Self.componentName(UnsafeBufferPointer(rebasing: line[(nameLength + 1)...])) {
                if isBegin { try beginComponent(name, line: number) } else { endComponent(name, line: number) }
                return
            }
            var repairs = ICalendarContentLine.Repairs()
            let property: ICalendarProperty
            do {
                property = try ICalendarContentLine.parse(line, line: number, repairs: &repairs)
            } catch {
                fault(number, "'\(Self.snippet(line))' \(error.reason)")
                return
            }
            if repairs.contains(.invalidUTF8) {
                warn(Warning(line: number, kind: .invalidUTF8, reason: "bytes that are not UTF-8 are replaced with U+FFFD"))
            }
            if repairs.contains(.controlCharacters) {
                warn(Warning(line: number, kind: .controlCharacters,
                             reason: "control characters, which RFC 5545 allows in no value, are replaced with U+FFFD"))
            }
            if isBegin {
                try beginComponent(property, line: number)
            } else if isEnd {
                endComponent(property, line: number)
            } else {
                try countProperty(line: number)
                stack[stack.count - 1].component.properties.append(property)
            }
        }

        mutating func countProperty(line: Int) throws(ICalendarReadError) {
            propertyCount += 1
            guard propertyCount <= limits.properties else {
                throw ICalendarReadError(kind: .tooManyProperties, line: line, reason: "the input holds more than \(limits.properties) properties")
            }
        }

        /// A line that cannot be read: a fault of the component it stands
        /// in, or, outside any, text that is skipped.
        mutating func fault(_ line: Int, _ reason: String) {
            if stack.isEmpty {
                warn(Warning(line: line, kind: .outsideComponent, reason: "text outside any component is skipped: \(reason)"))
            } else {
                let index = stack.count - 1
                if stack[index].faults.count < ICalendarReader.maximumFaultsPerComponent {
                    stack[index].faults.append((line, reason))
                } else {
                    stack[index].faultsLeftOut += 1
                    stack[index].lastFaultLine = line
                }
            }
        }

        /// Keeps the first `maximumWarnings`, then one saying more were left out.
        mutating func warn(_ warning: Warning) {
            if warnings.count < ICalendarReader.maximumWarnings {
                warnings.append(warning)
            } else if warnings.count == ICalendarReader.maximumWarnings {
                warnings.append(Warning(line: warning.line, kind: warning.kind,
                                        reason: "more than \(ICalendarReader.maximumWarnings) warnings: the rest from here on are left out"))
            }
        }

        /// The component name a BEGIN or END line gives, in upper case; nil when it is not a name.
        static func componentName(_ value: String) -> String? {
            // On the UTF-8 bytes: by Character (grapheme breaking, from
            // both ends) this cost more than a thousand instructions a line,
            // and one line in twenty is a BEGIN or END.
            var value = value
            return value.withUTF8 { componentName($0) }
        }

        /// The component name the bytes of a BEGIN or END line's value give, in upper case; nil when they are not a name.
        static func componentName(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
            var start = 0, end = bytes.count
            // Bounded by the value's length.
            while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
            while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
            guard start < end, bytes[start..<end].allSatisfy(ICalendarContentLine.isNameByte) else { return nil }
            // Name bytes are ASCII: upper-cased byte by byte, not by Unicode's mapping.
            return ICalendarContentLine.upperCaseName(bytes, start..<end)
        }

        mutating func beginComponent(_ property: ICalendarProperty, line: Int) throws(ICalendarReadError) {
            guard let name = Self.componentName(property.value) else {
                fault(line, "BEGIN:\(property.value) does not name a component")
                return
            }
            try beginComponent(name, line: line)
        }

        mutating func beginComponent(_ name: String, line: Int) throws(ICalendarReadError) {
            guard stack.count < limits.depth else {
                throw ICalendarReadError(kind: .nestedTooDeep, line: line, reason: "BEGIN:\(name) nests components deeper than \(limits.depth)")
            }
            componentCount += 1
            guard componentCount <= limits.components else {
                throw ICalendarReadError(kind: .tooManyComponents, line: line, reason: "the input holds more than \(limits.components) components")
            }
            var component = ICalendarComponent(upperCaseName: name, line: line)
            // Stacks grow one level at a time.
            if propertyCounts.count <= stack.count { propertyCounts.append(0) }
            component.properties.reserveCapacity(propertyCounts[stack.count])
            let skimmed = skimsItems && (stack.last?.skimmed == true
                || (stack.count == 1 && stack[0].component.name == "VCALENDAR" && (name == "VEVENT" || name == "VTODO")))
            stack.append(Frame(component: component, skimmed: skimmed))
        }

        mutating func endComponent(_ property: ICalendarProperty, line: Int) {
            guard let name = Self.componentName(property.value) else {
                fault(line, "END:\(property.value) does not name a component")
                return
            }
            endComponent(name, line: line)
        }

        mutating func endComponent(_ name: String, line: Int) {
            guard !stack.isEmpty else {
                problems.append(Problem(line: line, component: name, componentLine: line, uid: nil,
                                        reason: "END:\(name) without a BEGIN:\(name)", dropped: false))
                return
            }
            if stack[stack.count - 1].component.name == name {
                close()
            } else if let index = stack.lastIndex(where: { $0.component.name == name }) {
                let outer = stack[index].component.line
                // Bounded by the depth of the stack.
                while stack.count > index + 1 {
                    let open = stack[stack.count - 1].component
                    fault(open.line, "BEGIN:\(open.name) is never ended: END:\(name) at line \(line) closes BEGIN:\(name) of line \(outer) around it")
                    close()
                }
                close()
            } else {
                let open = stack[stack.count - 1].component
                fault(line, "END:\(name) closes nothing open: the innermost component is \(open.name), begun at line \(open.line)")
            }
        }

        /// Closes the innermost component: into its parent or the result
        /// when sound, reported when not (and left out, unless top-level).
        mutating func close() {
            let frame = stack.removeLast()
            propertyCounts[stack.count] = frame.component.properties.count
            if !frame.faults.isEmpty {
                let uid = frame.component["UID"]?.value
                let dropped = !stack.isEmpty
                var faults = frame.faults
                if frame.faultsLeftOut > 0 {
                    faults.append((frame.lastFaultLine, "and \(frame.faultsLeftOut) more lines up to here that could not be read"))
                }
                for fault in faults {
                    problems.append(Problem(line: fault.line, component: frame.component.name, componentLine: frame.component.line,
                                            uid: uid, reason: fault.reason, dropped: dropped))
                }
                if dropped { return }
            }
            if stack.isEmpty {
                done.append(frame.component)
            } else {
                if stack.count == 1, let handOver, stack[0].component.name == "VCALENDAR", handOver(frame.component, stack[0].component) {
                    return
                }
                stack[stack.count - 1].component.components.append(frame.component)
            }
        }

        mutating func closeAll(lastLine: Int) {
            // Bounded by the depth of the stack.
            while let open = stack.last?.component {
                fault(open.line, "BEGIN:\(open.name) is never ended: the input ends at line \(lastLine) without END:\(open.name)")
                close()
            }
        }

        /// The first 40 bytes or so of a line, for a message.
        static func snippet(_ line: UnsafeBufferPointer<UInt8>) -> String {
            guard line.count > 40 else { return String(decoding: line, as: UTF8.self) }
            var end = 40
            // Not inside a UTF-8 character: back up over continuation bytes (at most three).
            while end > 36, line[end] & 0xC0 == 0x80 { end -= 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: line[0..<end]), as: UTF8.self) + "…"
        }
    }
}
