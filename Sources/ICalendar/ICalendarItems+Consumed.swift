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

        /// Whether `property` is consumed whole: its name is, and so is each of its parameters.
        func consumesWhole(_ property: ICalendarProperty) -> Bool {
            guard let parameters = self[property.name] else { return false }
            return property.parameters.allSatisfy { parameter in parameters.contains { ICalendarComponent.same($0, parameter.name) } }
        }
    }
}
