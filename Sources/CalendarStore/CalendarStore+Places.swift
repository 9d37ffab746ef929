import CalendarModel
import SQLiteDatabase

/// Places the person named (`chime places add office here`), for location
/// alarms given by name (`--alarm-leave office`): each a circle with its
/// name as its title. Kept in `settings` (`place.NAME` = `LAT,LON,RADIUS`),
/// like the person's other settings: this machine's, not exported or synced.
extension CalendarStore {
    /// The longest name a place takes, in characters.
    public static let placeNameLimit = 64

    /// Every place, by name.
    public func places() throws(StoreError) -> [StructuredLocation] {
        try StoreError.wrap {
            try database.query("SELECT substr(key, 7), value FROM settings WHERE substr(key, 1, 6) = 'place.' ORDER BY key").compactMap { row in
                Self.place(named: try row.value(0), try row.value(1))
            }
        }
    }

    /// The place called `name` (exactly), or nil.
    public func place(named name: String) throws(StoreError) -> StructuredLocation? {
        try setting("place." + name).flatMap { Self.place(named: name, $0) }
    }

    /// Whether `text` starts as a name, not as a number does (a digit, a
    /// sign or a point): how a location alarm's value tells a place from
    /// coordinates.
    public static func startsAsName(_ text: some StringProtocol) -> Bool {
        guard let first = text.unicodeScalars.first else { return false }
        return !"0123456789+-.".unicodeScalars.contains(first)
    }

    /// Keeps `place` under its title, replacing a place of that name.
    /// Refuses a name that could be read as coordinates or as `here`: one
    /// that is empty, longer than `placeNameLimit`, holds a comma or a
    /// control character, does not start as a name, or starts or ends with a space.
    public func setPlace(_ place: StructuredLocation) throws(StoreError) {
        let name = place.title
        guard Self.startsAsName(name), name.count <= Self.placeNameLimit, !name.contains(","), name.lowercased() != "here",
              !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }),
              name.first?.isWhitespace == false, name.last?.isWhitespace == false else {
            throw .invalid(ValidationError(field: "place", value: name, reason: """
                is not a place's name: give 1 to \(Self.placeNameLimit) characters, no comma, not 'here', \
                not starting with a digit, a sign, a point, nor starting or ending with a space
                """))
        }
        try setSetting("place." + name, to: "\(place.latitude),\(place.longitude),\(place.radius)")
    }

    /// Forgets the place called `name`; false when there was none. Alarms
    /// made from it keep its circle: they hold coordinates, not the name.
    @discardableResult
    public func removePlace(named name: String) throws(StoreError) -> Bool {
        guard try place(named: name) != nil else { return false }
        try setSetting("place." + name, to: nil)
        return true
    }

    private static func place(named name: String, _ value: String) -> StructuredLocation? {
        let numbers = value.split(separator: ",").compactMap { Double($0) }
        guard numbers.count == 3 else { return nil }
        return try? StructuredLocation(title: name, latitude: numbers[0], longitude: numbers[1], radius: numbers[2])
    }
}
