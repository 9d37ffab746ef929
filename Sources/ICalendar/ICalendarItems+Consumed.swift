extension ICalendarItems {
    /// The properties a mapping consumes, each with the parameters it
    /// reads (see `Mapper.unmodelled`): a short list searched by name,
    /// lengths first (`ICalendarComponent.same`). A mapping names a dozen or
    /// so, and each of an item's properties is looked up once; as a
    /// dictionary, each look-up hashed the name, about 350 instructions
    /// (a tenth of the mapping of a 10,000-event import), where most names
    /// in the list differ from it in length and cost a comparison.
    struct ConsumedProperties: ExpressibleByDictionaryLiteral, Sendable {
        private var entries: [(name: String, parameters: [String])]

        init(dictionaryLiteral elements: (String, [String])...) {
            entries = elements.map { (name: $0.0, parameters: $0.1) }
        }

        /// The parameters read with the property `name` (upper case); nil when it is not consumed.
        subscript(name: String) -> [String]? {
            get {
                for entry in entries where ICalendarComponent.same(entry.name, name) { return entry.parameters }
                return nil
            }
            set {
                if let index = entries.firstIndex(where: { ICalendarComponent.same($0.name, name) }) {
                    if let newValue { entries[index].parameters = newValue } else { entries.remove(at: index) }
                } else if let newValue {
                    entries.append((name, newValue))
                }
            }
        }

        /// The names a mapping reads every property of; of the others, it reads the first.
        static let readInFull = ["EXDATE", "RDATE"]

        /// `properties` as a mapping reads them: `kept`, those it does not
        /// consume whole, in order (one of a consumed name is kept whole
        /// when it has parameters the mapping does not read, so that export
        /// lends them to the property it writes, `Kept.lend`); `repeats`,
        /// those after the first of a name RFC 5545 allows once. A repeat
        /// is no part of the item, and kept it would be the one to lend
        /// when export writes the name: the first one's parameters would be
        /// lost, and a line more on every import and export.
        func partition(_ properties: [ICalendarProperty]) -> (kept: [ICalendarProperty], repeats: [ICalendarProperty]) {
            var kept: [ICalendarProperty] = [], repeats: [ICalendarProperty] = []
            // Bit i: a property of entries[i] was met (a mapping names a dozen or so).
            var met: UInt64 = 0
            for property in properties {
                guard let index = entries.firstIndex(where: { ICalendarComponent.same($0.name, property.name) }) else {
                    kept.append(property)
                    continue
                }
                if index < 64, !Self.readInFull.contains(where: { ICalendarComponent.same($0, property.name) }) {
                    guard met & (1 << index) == 0 else {
                        repeats.append(property)
                        continue
                    }
                    met |= 1 << index
                }
                let parameters = entries[index].parameters
                if !property.parameters.allSatisfy({ parameter in parameters.contains { ICalendarComponent.same($0, parameter.name) } }) {
                    kept.append(property)
                }
            }
            return (kept, repeats)
        }
    }
}
