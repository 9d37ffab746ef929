/// The export as a component tree (`ICalendarItems.components`): the
/// components the bytes would read back as, flaws and all (it refuses
/// nothing; `ICalendarWriter` refuses what would not read back).
struct ICalendarTreeSink: ICalendarExportSink {
    typealias Failure = Never

    /// The open components, outermost first, under a root that holds what was written.
    private var open = [ICalendarComponent(name: "ROOT")]
    private var value: [UInt8] = []

    /// The components written at the top.
    var components: [ICalendarComponent] { open[0].components }

    mutating func begin(_ name: String) {
        open.append(ICalendarComponent(name: name))
    }

    mutating func end(_ name: String) {
        let done = open.removeLast()
        open[open.count - 1].components.append(done)
    }

    mutating func property(_ name: String, _ parameters: ICalendarItems.Parameters, lent: [ICalendarParameter],
                           value write: (inout [UInt8]) -> Void) {
        value.removeAll(keepingCapacity: true)
        write(&value)
        open[open.count - 1].properties.append(ICalendarProperty(name: name, parameters: parameters.list + lent,
                                                                 value: String(decoding: value, as: UTF8.self)))
    }

    mutating func property(_ property: ICalendarProperty) {
        open[open.count - 1].properties.append(property)
    }

    mutating func component(_ component: ICalendarComponent) {
        open[open.count - 1].components.append(component)
    }

    var mark: Int { open[open.count - 1].components.count }

    mutating func insert(_ components: [ICalendarComponent], at mark: Int) {
        open[open.count - 1].components.insert(contentsOf: components, at: mark)
    }
}
