import CalendarModel
import CalendarStore
import Foundation

/// A writer for the store's reliability tests, run as a separate process:
/// saves `count` reminders titled "<tag> <n>", each committed on its own or
/// all in one batch. Before a batch commits it prints `committing` so that a
/// test can kill it mid-commit.
public enum WriteLoad {
    public static func run(path: String, count: Int, tag: String, batch: Bool) throws {
        let store = try CalendarStore(path: path, machineTimeZone: .utc)
        let calendar = try store.defaultCalendarForNewReminders().identifier
        for index in 0..<count {
            try store.save(Reminder(calendarIdentifier: calendar, title: "\(tag) \(index)", notes: String(repeating: "x", count: 200)),
                           commit: !batch)
        }
        if batch {
            FileHandle.standardOutput.write(Data("committing\n".utf8))
            try store.commit()
        }
        FileHandle.standardOutput.write(Data("done\n".utf8))
    }
}
