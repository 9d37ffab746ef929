// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Chime",
    products: [
        .executable(name: "chime", targets: ["chime"]),
        .executable(name: "chime-bench", targets: ["chime-bench"]),
        .executable(name: "chime-bench-peer", targets: ["chime-bench-peer"]),
        .executable(name: "chimed", targets: ["chimed"]),
        .library(name: "CalendarModel", targets: ["CalendarModel"]),
        .library(name: "RecurrenceEngine", targets: ["RecurrenceEngine"]),
    ],
    targets: [
        .target(name: "CalendarModel"),
        .target(name: "RecurrenceEngine", dependencies: ["CalendarModel"]),
        // iCalendar (RFC 5545) text to values and back, and to and from CalendarModel's items; no store.
        .target(name: "ICalendar", dependencies: ["CalendarModel", "SystemCalls"]),
        // The one JSON reader for text from outside (holiday files, gpsd lines, socket requests); Foundation-free.
        .target(name: "JSONValues"),
        // BundledData links to share/holidays, the single source of the data;
        // each file there is compiled in as PackageResources.<name>_txt.
        .target(name: "HolidayCalendars", dependencies: ["CalendarModel", "SystemCalls", "JSONValues"],
                resources: [.embedInCode("BundledData")]),
        // The parser, declared options, generated help and exit statuses chime and chimed share.
        .target(name: "CommandLineSupport", dependencies: ["CalendarModel", "SystemCalls"]),
        // iCalendar files and feeds into the store and out: import, export, subscription refresh.
        .target(name: "CalendarExchange", dependencies: ["ICalendar", "CalendarStore", "CalendarModel", "HolidayCalendars", "HTTPDownload", "SystemCalls"]),
        .target(name: "CommandLineInterface", dependencies: ["DaemonControl", "CalendarExchange", "CalDAVSync", "ICalendar", "CommandLineSupport", "CalendarModel", "RecurrenceEngine", "CalendarStore", "HolidayCalendars",
                                                            "AlarmScheduler", "Geofencing", "HTTPDownload", "SystemCalls"]),
        // libcurl's ABI for dlopen: only the commands that download load it (and TLS behind it).
        .systemLibrary(name: "CCurl"),
        // GET of http(s) addresses through libcurl, opened on first use: bounded in size, time
        // and redirects, conditional on an ETag or Last-Modified (subscribed calendars, holiday-cn).
        .target(name: "HTTPDownload", dependencies: ["CCurl", "SystemCalls", "CalendarModel"]),
        // WebDAV and CalDAV XML: request bodies and the multistatus reader (libxml2's SAX2 parser); no transport.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .target(name: "WebDAV", dependencies: ["CLibXML2"]),
        // CalDAV sync: discovery of a user's calendars (then the sync engine) on HTTPDownload's client and WebDAV.
        .target(name: "CalDAVSync", dependencies: ["WebDAV", "HTTPDownload", "SystemCalls", "CalendarExchange", "CalendarStore", "CalendarModel",
                                                  "SQLiteDatabase", "HolidayCalendars", "ICalendar"]),
        .target(name: "SeededRandom"),
        // errno as a value (the call, the path, the code) and the EINTR retry: Glibc only.
        .target(name: "SystemCalls"),
        .target(name: "Geofencing", dependencies: ["CalendarModel", "JSONValues"]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "SQLiteDatabase", dependencies: ["CSQLite", "SystemCalls"]),
        .target(name: "CalendarStore", dependencies: ["SQLiteDatabase", "CalendarModel", "RecurrenceEngine", "HolidayCalendars", "Geofencing"]),
        .systemLibrary(name: "CTimerFD"),
        // The control socket both sides speak: requests, replies, the daemon's listening socket and the client.
        .target(name: "DaemonControl", dependencies: ["CalendarModel", "SystemCalls", "JSONValues"]),
        .target(name: "AlarmScheduler", dependencies: ["DaemonControl", "CalendarModel", "RecurrenceEngine", "CalendarStore", "HolidayCalendars", "CTimerFD",
                                                       "SQLiteDatabase", "Geofencing", "SystemCalls"]),
        .systemLibrary(name: "CLibnotify", pkgConfig: "libnotify", providers: [.apt(["libnotify-dev"])]),
        .target(name: "DesktopNotifications", dependencies: ["CLibnotify", "AlarmScheduler", "CalendarModel", "RecurrenceEngine"]),
        .target(name: "Benchmarks", dependencies: ["DaemonControl", "CalendarModel", "ICalendar", "CalendarExchange", "RecurrenceEngine", "CalendarStore", "SeededRandom", "AlarmScheduler",
                                                  "Geofencing", "SQLiteDatabase", "SystemCalls", "CalDAVSync", "HTTPDownload"]),
        .executableTarget(name: "chime", dependencies: ["CommandLineInterface"]),
        .executableTarget(name: "chime-bench", dependencies: ["Benchmarks"]),
        // Foundation's hello world: what 'chime-bench cli' holds chime's start-up against.
        .executableTarget(name: "chime-bench-peer"),
        // Not CommandLineInterface: chimed needs none of chime's commands (nor their code's start-up cost).
        .target(name: "ChimedCommandLine", dependencies: ["DaemonControl", "CalDAVSync", "CalendarExchange", "CommandLineSupport", "AlarmScheduler", "CalendarStore", "CalendarModel", "DesktopNotifications"]),
        .executableTarget(name: "chimed", dependencies: ["ChimedCommandLine"]),
        // What the test targets share (temporary folders and stores, literal
        // parsing, package paths, child processes); only test targets depend on it.
        .target(name: "TestSupport", dependencies: ["AlarmScheduler", "CalendarModel", "CalendarStore", "SystemCalls"], path: "Tests/TestSupport"),
        .testTarget(name: "CalendarModelTests", dependencies: ["TestSupport", "CalendarModel", "SeededRandom"]),
        .testTarget(name: "RecurrenceEngineTests", dependencies: ["TestSupport", "RecurrenceEngine", "CalendarModel", "SeededRandom"]),
        .testTarget(name: "CalendarStoreTests", dependencies: ["TestSupport", "CalendarStore", "CalendarModel", "SQLiteDatabase", "Geofencing", "SeededRandom"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "CommandLineInterfaceTests", dependencies: ["TestSupport", "DaemonControl", "CommandLineInterface", "CommandLineSupport", "ChimedCommandLine", "CalDAVSync", "CalendarExchange", "CalendarStore", "CalendarModel",
                                                                     "AlarmScheduler", "Geofencing", "SQLiteDatabase", "HTTPDownload"]),
        .testTarget(name: "SQLiteDatabaseTests", dependencies: ["TestSupport", "SQLiteDatabase"]),
        .testTarget(name: "AlarmSchedulerTests", dependencies: ["TestSupport", "DaemonControl", "AlarmScheduler", "CalendarStore", "CalendarModel", "SeededRandom",
                                                               "Geofencing", "HolidayCalendars", "RecurrenceEngine", "SQLiteDatabase"]),
        .testTarget(name: "DesktopNotificationsTests", dependencies: ["TestSupport", "DesktopNotifications", "AlarmScheduler", "CalendarModel",
                                                                     "RecurrenceEngine", "CalendarStore", "HolidayCalendars"]),
        .testTarget(name: "HolidayCalendarsTests", dependencies: ["TestSupport", "HolidayCalendars", "CalendarModel"]),
        .testTarget(name: "GeofencingTests", dependencies: ["Geofencing", "CalendarModel", "SeededRandom"]),
        .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls"]),
        .testTarget(name: "ICalendarTests", dependencies: ["TestSupport", "ICalendar", "CalendarModel", "RecurrenceEngine"],
                    resources: [.copy("Fixtures")]),
        // Against Server/fixture-server.py, a python3 HTTP server each test starts on 127.0.0.1.
        .testTarget(name: "HTTPDownloadTests", dependencies: ["TestSupport", "HTTPDownload", "CCurl"], exclude: ["Server"]),
        // Literal XML from RFC 4791 and 6578, and replies captured from Radicale and Xandikos (Fixtures).
        .testTarget(name: "WebDAVTests", dependencies: ["TestSupport", "WebDAV"], resources: [.copy("Fixtures")]),
        // Against Radicale and Xandikos from .build/caldav-venv (contrib/caldav/setup), started per test.
        .testTarget(name: "CalDAVSyncTests", dependencies: ["TestSupport", "CalDAVSync", "WebDAV", "HTTPDownload", "CalendarStore", "CalendarModel"]),
    ],
    swiftLanguageModes: [.v6]
)

// The test code is compiled unoptimised even in a release build (contrib/test
// builds once, -c release -enable-testing): the code under test stays
// optimised, the tests ran no slower (239 s against 243 s) and the build of
// the test targets took 140 s instead of 306 s.
for target in package.targets where target.type == .test || target.name == "TestSupport" {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone"])]
}

// The fuzz targets (Fuzz/, run by contrib/fuzz): declared only when CHIME_FUZZ
// is set, so that the normal build and test run never see them. contrib/fuzz
// builds them in .build/fuzz with libFuzzer and AddressSanitizer; each holds
// LLVMFuzzerTestOneInput and no main of its own (libFuzzer's is the main).
if Context.environment["CHIME_FUZZ"] != nil {
    let fuzzTargets: [(name: String, modules: [String])] = [
        ("rrule", ["CalendarModel"]),
        ("time", ["CalendarModel"]),
        ("holiday", ["HolidayCalendars", "CalendarModel"]),
        ("position", ["Geofencing"]),
        ("socket", ["DaemonControl"]),
        ("icalendar", ["ICalendar"]),
        ("webdav", ["WebDAV"]),
    ]
    package.targets.append(.systemLibrary(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"))
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["CLibFuzzer"], path: "Fuzz/Support"))
    // Every module the targets fuzz, so that contrib/fuzz compiles them in
    // one invocation, side by side, before linking each target.
    package.targets.append(.target(name: "FuzzedModules", dependencies: Set(fuzzTargets.flatMap(\.modules)).sorted().map { .byName(name: $0) } + ["FuzzSupport"],
                                   path: "Fuzz/Modules"))
    for target in fuzzTargets {
        package.targets.append(.executableTarget(name: "fuzz-\(target.name)", dependencies: target.modules.map { .byName(name: $0) } + ["FuzzSupport"],
                                                 path: "Fuzz/Targets/\(target.name)",
                                                 // The main is each file's @_cdecl("fuzz_NAME_main"), the name SwiftPM links as main.
                                                 swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
    }
}
