// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Chime",
    products: [
        .executable(name: "chime", targets: ["chime"]),
        .executable(name: "chime-bench", targets: ["chime-bench"]),
        .library(name: "CalendarModel", targets: ["CalendarModel"]),
        .library(name: "RecurrenceEngine", targets: ["RecurrenceEngine"]),
    ],
    targets: [
        .target(name: "CalendarModel"),
        .target(name: "RecurrenceEngine", dependencies: ["CalendarModel"]),
        .target(name: "CommandLineInterface", dependencies: ["CalendarModel", "RecurrenceEngine"]),
        .target(name: "Benchmarks", dependencies: ["CalendarModel", "RecurrenceEngine"]),
        .executableTarget(name: "chime", dependencies: ["CommandLineInterface"]),
        .executableTarget(name: "chime-bench", dependencies: ["Benchmarks"]),
        .testTarget(name: "CalendarModelTests", dependencies: ["CalendarModel"]),
        .testTarget(name: "RecurrenceEngineTests", dependencies: ["RecurrenceEngine", "CalendarModel"]),
        .testTarget(name: "CommandLineInterfaceTests", dependencies: ["CommandLineInterface"]),
    ],
    swiftLanguageModes: [.v6]
)
