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
        // BundledData links to share/holidays, the single source of the data;
        // each file there is compiled in as PackageResources.<name>_txt.
        .target(name: "HolidayCalendars", dependencies: ["CalendarModel"],
                resources: [.embedInCode("BundledData")]),
        .target(name: "CommandLineInterface", dependencies: ["CalendarModel", "RecurrenceEngine", "CalendarStore", "HolidayCalendars",
                                                            "AlarmScheduler", "Geofencing", "CCurl"]),
        // libcurl's ABI for dlopen: only 'chime holidays update' loads it (and TLS behind it).
        .systemLibrary(name: "CCurl"),
        .target(name: "SeededRandom"),
        .target(name: "Geofencing", dependencies: ["CalendarModel"]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "SQLiteDatabase", dependencies: ["CSQLite"]),
        .target(name: "CalendarStore", dependencies: ["SQLiteDatabase", "CalendarModel", "RecurrenceEngine", "HolidayCalendars", "Geofencing"]),
        .systemLibrary(name: "CTimerFD"),
        .target(name: "AlarmScheduler", dependencies: ["CalendarModel", "RecurrenceEngine", "CalendarStore", "HolidayCalendars", "CTimerFD",
                                                       "Geofencing"]),
        .systemLibrary(name: "CLibnotify", pkgConfig: "libnotify", providers: [.apt(["libnotify-dev"])]),
        .target(name: "DesktopNotifications", dependencies: ["CLibnotify", "AlarmScheduler", "CalendarModel", "RecurrenceEngine"]),
        .target(name: "Benchmarks", dependencies: ["CalendarModel", "RecurrenceEngine", "CalendarStore", "SeededRandom", "AlarmScheduler",
                                                  "Geofencing", "SQLiteDatabase"]),
        .executableTarget(name: "chime", dependencies: ["CommandLineInterface"]),
        .executableTarget(name: "chime-bench", dependencies: ["Benchmarks"]),
        // Foundation's hello world: what 'chime-bench cli' holds chime's start-up against.
        .executableTarget(name: "chime-bench-peer"),
        // Not CommandLineInterface: chimed needs none of chime's commands (nor their code's start-up cost).
        .target(name: "ChimedCommandLine", dependencies: ["AlarmScheduler", "CalendarStore", "CalendarModel", "DesktopNotifications"]),
        .executableTarget(name: "chimed", dependencies: ["ChimedCommandLine"]),
        // What the test targets share (temporary folders and stores, literal
        // parsing, package paths, child processes); only test targets depend on it.
        .target(name: "TestSupport", dependencies: ["CalendarModel", "CalendarStore"], path: "Tests/TestSupport"),
        .testTarget(name: "CalendarModelTests", dependencies: ["TestSupport", "CalendarModel", "SeededRandom"]),
        .testTarget(name: "RecurrenceEngineTests", dependencies: ["TestSupport", "RecurrenceEngine", "CalendarModel", "SeededRandom"]),
        .testTarget(name: "CalendarStoreTests", dependencies: ["TestSupport", "CalendarStore", "CalendarModel", "SQLiteDatabase", "Geofencing", "SeededRandom"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "CommandLineInterfaceTests", dependencies: ["TestSupport", "CommandLineInterface", "CalendarStore", "CalendarModel",
                                                                     "AlarmScheduler", "Geofencing", "SQLiteDatabase"]),
        .testTarget(name: "SQLiteDatabaseTests", dependencies: ["TestSupport", "SQLiteDatabase"]),
        .testTarget(name: "AlarmSchedulerTests", dependencies: ["TestSupport", "AlarmScheduler", "CalendarStore", "CalendarModel", "SeededRandom",
                                                               "Geofencing", "HolidayCalendars", "RecurrenceEngine", "SQLiteDatabase"]),
        .testTarget(name: "DesktopNotificationsTests", dependencies: ["TestSupport", "DesktopNotifications", "AlarmScheduler", "CalendarModel",
                                                                     "RecurrenceEngine", "CalendarStore", "HolidayCalendars"]),
        .testTarget(name: "HolidayCalendarsTests", dependencies: ["TestSupport", "HolidayCalendars", "CalendarModel"]),
        .testTarget(name: "GeofencingTests", dependencies: ["Geofencing", "CalendarModel", "SeededRandom"]),
    ],
    swiftLanguageModes: [.v6]
)
