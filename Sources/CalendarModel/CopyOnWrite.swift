/// A value kept behind one reference and copied only when changed while
/// shared: for model types that are copied far more often than changed. A
/// query returns thousands of occurrences of a few series, and a rule is
/// copied into every event, plan and source that uses it; each copy of the
/// fields themselves would retain every string and array among them, and
/// behind one reference it retains once.
///
/// Equality and hashing are the value's (synthesized there, so a field added
/// to it is compared and hashed without another line), with a shortcut for
/// two copies of one box.
struct CopyOnWrite<Value: Hashable>: Hashable {
    // Mutated only through `value`'s modify accessor, which first makes the
    // box unique: no two threads ever see it change. Nor does one thread
    // overlap a read and a change: both go through `box`, a stored property
    // of a struct, whose exclusivity the compiler checks statically. The
    // runtime's own check of each access to a class's property is then
    // redundant, and it was 7 % of a week's range query (callgrind).
    private final class Box: @unchecked Sendable {
        @exclusivity(unchecked) var value: Value
        init(_ value: Value) { self.value = value }
    }

    private var box: Box

    init(_ value: Value) { box = Box(value) }

    var value: Value {
        _read { yield box.value }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
            yield &box.value
        }
    }

    /// The same for every copy sharing this box, and for no other while it
    /// lives: for caches of work done per value (a changed copy has a new box).
    var identity: ObjectIdentifier { ObjectIdentifier(box) }

    static func == (lhs: CopyOnWrite, rhs: CopyOnWrite) -> Bool {
        lhs.box === rhs.box || lhs.box.value == rhs.box.value
    }

    func hash(into hasher: inout Hasher) { hasher.combine(box.value) }
}

extension CopyOnWrite: Sendable where Value: Sendable {}
