import CalendarModel
import Foundation
import SystemCalls

/// The bundled holiday data, and reading holiday files of any format.
///
/// The data of each region is one file in `share/holidays/` (`cn.txt`), the
/// single source of truth: the target folder holds a symbolic link to that
/// folder (`Sources/HolidayCalendars/BundledData`), and SwiftPM embeds each
/// file in the code as `PackageResources.<name>_txt`, so no executable
/// reads a file at run time. Adding a region is a file in `share/holidays/`
/// and one line in `bundledFiles`.
public enum HolidayData {
    /// Region code → (the file's name, its bytes). The one registration per region.
    private static let bundledFiles: [String: (file: String, bytes: [UInt8])] = [
        "cn": ("cn.txt", PackageResources.cn_txt),
    ]

    /// Parsed once, on first use. The tests read every bundled file, so a
    /// broken one cannot ship unnoticed; should one anyway, each use says
    /// which line is at fault rather than crashing.
    private static let bundledYears: [String: Result<[HolidayYear], HolidayDataError>] = {
        var result: [String: Result<[HolidayYear], HolidayDataError>] = [:]
        for (region, bundle) in bundledFiles {
            let file = "bundled:" + bundle.file
            result[region] = Result { () throws(HolidayDataError) in
                let years = try CompactHolidayFormat.parse(bundle.bytes, file: file)
                if let stray = years.first(where: { $0.region != region }) {
                    throw HolidayDataError(file: file, location: .file, kind: .syntax,
                                           reason: "holds region \(stray.region), but is registered for \(region)")
                }
                return years.sorted { $0.year < $1.year }
            }
        }
        return result
    }()

    /// The regions with bundled data, sorted.
    public static var bundledRegions: [String] { bundledFiles.keys.sorted() }

    /// The bundled years of `region`, in year order; nil for a region
    /// without bundled data.
    /// Throws only if the bundled file itself is broken, which the tests rule out.
    public static func bundled(region: String) throws(HolidayDataError) -> [HolidayYear]? {
        try bundledYears[region]?.get()
    }

    /// The text of the bundled file of `region`, as shipped.
    public static func bundledText(region: String) -> String? {
        bundledFiles[region].map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    /// The format a file's name says it has: `.json`, `.ics`, or `.txt` for
    /// the compact format.
    public static func format(ofFileNamed name: String) -> HolidayFileFormat? {
        switch (name as NSString).pathExtension.lowercased() {
        case "json": .holidayCNJSON
        case "ics", "ical", "ifb": .holidayCNICS
        case "txt": .compact
        default: nil
        }
    }

    /// The year a holiday-cn file's name gives (`2021.json`, `/tmp/2021.ics`), if any.
    public static func year(ofFileNamed name: String) -> Int? {
        let stem = ((name as NSString).lastPathComponent as NSString).deletingPathExtension
        guard stem.count == 4, stem.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(stem)
    }

    /// Parses bytes in a known format. For the holiday-cn formats `year` is
    /// the year expected (JSON) or given (ICS), usually from the file name;
    /// a compact file names its own region and years, and `region` and
    /// `year` do not apply to it.
    public static func parse(_ bytes: [UInt8], format: HolidayFileFormat, file: String, region: String = "cn",
                             year: Int? = nil) throws(HolidayDataError) -> [HolidayYear] {
        switch format {
        case .compact: try CompactHolidayFormat.parse(bytes, file: file)
        case .holidayCNJSON: [try HolidayCNJSON.parse(bytes, file: file, region: region, expectedYear: year)]
        case .holidayCNICS: [try HolidayCNICS.parse(bytes, file: file, region: region, year: year)]
        }
    }

    /// Reads a file whose format is given by its extension and, for the
    /// holiday-cn formats, whose year by its name when the name is a year.
    public static func read(path: String, region: String = "cn") throws(HolidayDataError) -> [HolidayYear] {
        guard let format = format(ofFileNamed: path) else {
            throw HolidayDataError(file: path, location: .file, kind: .unreadable,
                                   reason: "the file name does not say its format: expected .json or .ics (holiday-cn) or .txt (Chime's compact format)")
        }
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw HolidayDataError(file: path, location: .file, kind: .unreadable,
                                   reason: "cannot be read: \(Self.readFailure(error))")
        }
        return try parse(bytes, format: format, file: path, region: region, year: year(ofFileNamed: path))
    }

    /// The system's words for why a read failed ("No such file or
    /// directory"): Foundation's own message on Linux is "The operation
    /// could not be completed" for most of them.
    private static func readFailure(_ error: any Error) -> String {
        // The underlying error is a POSIXError, which does not cast to NSError.
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? POSIXError {
            return SystemError(code: underlying.code.rawValue, call: "read").reason
        }
        return (error as NSError).localizedDescription
    }
}

extension WorkdayCalendar {
    /// The calendar of a region's bundled data; nil for a region without any.
    public static func bundled(region: String, ordinaryWeek: OrdinaryWeek = OrdinaryWeek()) throws(HolidayDataError) -> WorkdayCalendar? {
        try HolidayData.bundled(region: region).map { WorkdayCalendar(region: region, years: $0, ordinaryWeek: ordinaryWeek) }
    }
}
