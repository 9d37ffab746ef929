import CalDAVSync
import CalendarModel
import CalendarStore
import CommandLineInterface
import Foundation
import TestSupport
import Testing

@Suite("chime account and chime sync against Radicale")
struct SyncCommandTests {
    /// Radicale with the phone's calendar holding one to-do (`bins@phone`),
    /// and a store with no account yet.
    static func phoneWithBins() throws -> (server: CalDAVServer, calendarURL: String, scratch: Scratch) {
        let server = try CalDAVServer(.radicale)
        let calendarURL = try server.makeCalendar("Phone")
        _ = try server.put("""
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//EN\r\nBEGIN:VTODO\r\nUID:bins@phone\r\nDTSTAMP:20261201T080000Z\r\n\
            DUE:20270105T170000Z\r\nSUMMARY:Put the bins out\r\nEND:VTODO\r\nEND:VCALENDAR\r\n
            """, in: calendarURL)
        return (server, calendarURL, Scratch())
    }

    @Test("account add maps the phone's calendar; sync brings its to-do down and a Chime reminder up; account remove forgets it")
    func accountAndSync() throws {
        let (server, calendarURL, scratch) = try Self.phoneWithBins()
        let added = scratch.ok("account", "add", server.base + "/", "--user", "ann", "--password-command", "printf secret", "--name", "home")
        #expect(added.output.first == "added account 'home' with 1 calendar")
        #expect(added.output.dropFirst().first == "home: Phone (VEVENT,VTODO) \(calendarURL)")
        #expect(scratch.ok("account", "list").text == "home: Phone (VEVENT,VTODO) \(calendarURL)")

        #expect(scratch.ok("sync").text == "home/Phone: 0 uploaded, 0 deleted on the server, 1 downloaded, 0 removed, 0 conflicts")
        let store = try scratch.store()
        let phone = try store.calendar(named: "Phone")
        #expect(try store.items(of: phone.identifier).reminders.map(\.title) == ["Put the bins out"])

        _ = scratch.ok("add", "reminder", "Call the plumber", "--calendar", "Phone")
        #expect(scratch.ok("sync", "home").text == "home/Phone: 1 uploaded, 0 deleted on the server, 0 downloaded, 0 removed, 0 conflicts")
        #expect(try server.phone(["list", calendarURL]).split(separator: "\n").count == 2)
        #expect(scratch.ok("sync", "--status").text == "No conflicts.")
        let status = try scratch.ok("sync", "--status", "--json").json()
        #expect((status["conflicts"] as? [Any])?.isEmpty == true)
        _ = scratch.ok("add", "reminder", "Buy stamps", "--calendar", "Phone")
        let synced = try #require(try scratch.ok("sync", "--json").json()["synced"] as? [[String: Any]])
        #expect(synced.count == 1)
        #expect(synced.first?["account"] as? String == "home" && synced.first?["calendar"] as? String == "Phone")
        #expect(synced.first?["url"] as? String == calendarURL)
        #expect(synced.first?["uploaded"] as? Int == 1 && synced.first?["downloaded"] as? Int == 0)
        #expect(synced.first?["failure"] is NSNull)

        #expect(scratch.ok("account", "remove", "home").text == "removed account 'home'")
        #expect(scratch.ok("sync").text == "No accounts.")
    }

    @Test("a key with a slash goes up under a name made from it; an item of a kind the calendar does not hold is named at every sync and stays here")
    func resourceNamesAndKinds() throws {
        let server = try CalDAVServer(.radicale)
        let phoneURL = try server.makeCalendar("Phone")
        _ = try server.makeCalendar("Meetings", components: ["VEVENT"])
        let scratch = Scratch()
        _ = scratch.ok("account", "add", server.base + "/", "--user", "ann", "--password-command", "printf secret", "--name", "home")
        _ = scratch.add("reminder", "Keyed", "--calendar", "Phone", "--key", "zz/zz")
        _ = scratch.add("reminder", "Dotted", "--calendar", "Phone", "--key", "..")
        let todo = scratch.add("reminder", "Not a meeting", "--calendar", "Meetings")
        let first = scratch.ok("sync")
        #expect(first.output.contains("home/Phone: 2 uploaded, 0 deleted on the server, 0 downloaded, 0 removed, 0 conflicts"), "\(first.output)")
        let listed = try server.phone(["list", phoneURL])
        #expect(listed.contains("chime-") && !listed.contains("zz"), "\(listed)")
        let named = "reminder 'Not a meeting' (UID "
        #expect(first.errors.contains { $0.contains(named) && $0.contains("holds only VEVENT; it stays in Chime only") }, "\(first.errors)")
        // Nothing changed here since: still named, still here.
        let second = scratch.ok("sync")
        #expect(second.errors.contains { $0.contains(named) }, "\(second.errors)")
        #expect(second.output.contains("home/Phone: 0 uploaded, 0 deleted on the server, 0 downloaded, 0 removed, 0 conflicts"))
        #expect(scratch.ok("show", todo).text.contains("Not a meeting"))
        // Moved to a calendar that holds reminders, it goes up and is named no more.
        _ = scratch.ok("edit", todo, "--calendar", "Phone")
        let moved = scratch.ok("sync")
        #expect(moved.output.contains("home/Phone: 1 uploaded, 0 deleted on the server, 0 downloaded, 0 removed, 0 conflicts"), "\(moved.output)")
        #expect(!moved.errors.contains { $0.contains(named) }, "\(moved.errors)")
        #expect(scratch.ok("sync").errors.isEmpty)
    }

    @Test("an account removed and added again finds its calendars' items the same on both sides: no conflicts, nothing sent twice; a calendar made on the server since is found by the next sync")
    func addedAgain() throws {
        let (server, calendarURL, scratch) = try Self.phoneWithBins()
        let add = ["account", "add", server.base + "/", "--user", "ann", "--password-command", "printf secret", "--name", "home"]
        #expect(scratch.run(add).status == 0)
        _ = scratch.add("reminder", "Call the plumber", "--calendar", "Phone")
        #expect(scratch.ok("sync").text == "home/Phone: 1 uploaded, 0 deleted on the server, 1 downloaded, 0 removed, 0 conflicts")
        _ = scratch.ok("account", "remove", "home")
        #expect(scratch.run(add).status == 0)
        let again = scratch.ok("sync")
        #expect(again.text.hasSuffix(" 0 conflicts"), "\(again.text)")
        #expect(scratch.ok("sync", "--status").text == "No conflicts.")
        #expect(try server.phone(["list", calendarURL]).split(separator: "\n").count == 2)
        #expect(try scratch.store().items(of: try scratch.store().calendar(named: "Phone").identifier).reminders.count == 2)

        // A calendar made on the phone since is found by the next sync, mapped and synced with the rest.
        let work = try server.makeCalendar("Work")
        _ = try server.put("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//EN\r\nBEGIN:VTODO\r\nUID:report@phone\r\n"
                           + "DTSTAMP:20261201T080000Z\r\nSUMMARY:Send the report\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", in: work)
        let found = scratch.ok("sync")
        #expect(found.output.contains("home/Work: 0 uploaded, 0 deleted on the server, 1 downloaded, 0 removed, 0 conflicts"), "\(found.output)")
        #expect(scratch.ok("account", "list").output.contains { $0.hasPrefix("home: Work ") })
    }

    @Test("a password the server refuses at sync is tried on one calendar, not on each: the others say they were not tried, one line each")
    func refusedPasswordOnce() throws {
        let server = try CalDAVServer(.radicale)
        _ = try server.makeCalendar("Phone")
        _ = try server.makeCalendar("Work")
        let scratch = Scratch()
        let passwordFile = scratch.folder + "/password"
        try "secret\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        #expect(scratch.run(["account", "add", server.base + "/", "--user", "ann", "--password-command", "cat \(passwordFile)",
                             "--name", "home"]).status == 0)
        try "hunter2\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        let refused = scratch.run("sync")
        #expect(refused.status == 69)
        #expect(refused.errors.count == 2, "\(refused.errors)")
        #expect(refused.errors.filter { $0.contains("refused the password for user 'ann'") }.count == 2, "\(refused.errors)")
        #expect(refused.errors.filter { $0.contains(": not tried: ") }.count == 1, "\(refused.errors)")
    }

    @Test("a wrong password command fails clearly, and an unknown account is refused")
    func failures() throws {
        let server = try CalDAVServer(.radicale)
        let scratch = Scratch()
        _ = scratch.ok("calendar", "add", "Home")
        try scratch.refuses(["account", "add", server.base + "/", "--user", "ann", "--password-command", "printf hunter2"], status: 69,
                            mentioning: ["refused the password for user 'ann'"])
        try scratch.refuses(["account", "add", server.base + "/", "--user", "ann", "--password-command", "false"], status: 65,
                            mentioning: ["password command 'false' exited with status 1"])
        try scratch.refuses(["sync", "work"], status: 66, mentioning: ["'work' is not an account"])
        try scratch.refuses(["account", "remove", "work"], status: 66, mentioning: ["'work' is not an account"])
        try scratch.refuses(["account", "add", server.base + "/", "--user", "ann", "--password-command", "pass show 'home"], status: 64,
                            mentioning: ["has a quote left open"])
        // Quoted as a shell quotes: the one word 'printf secret' reaches sh whole.
        _ = scratch.ok("account", "add", server.base + "/", "--user", "ann", "--password-command", "sh -c 'printf secret'", "--name", "home")
        // The name again for another login or server is refused before anything is asked: the
        // account would take the old one's calendars, and its password would go to the old server.
        try scratch.refuses(["account", "add", server.base + "/", "--user", "bob", "--password-command", "printf secret", "--name", "home"],
                            status: 65, mentioning: ["account 'home' is user 'ann' at \(server.base)/", "another --name", "chime account remove home"])
        try scratch.refuses(["account", "add", "http://127.0.0.1:9/", "--user", "ann", "--password-command", "printf secret", "--name", "home"],
                            status: 65, mentioning: ["account 'home' is user 'ann' at \(server.base)/"])
        // The same login again only changes how the password is found.
        _ = scratch.ok("account", "add", server.base + "/", "--user", "ann", "--password-command", "printf secret", "--name", "home")
        // Ann has no calendar on this server yet: the account is listed all the same.
        #expect(scratch.ok("account", "list").text == "home: no calendars at \(server.base)/")
        let listed = try scratch.ok("account", "list", "--json").json()
        #expect((listed["accounts"] as? [[String: Any]])?.map { $0["user"] as? String } == ["ann"])
        #expect((listed["calendars"] as? [Any])?.isEmpty == true)
    }

    /// A keyring of the test's own, Radicale with a calendar, and a store
    /// (made) whose `chime` sees the keyring.
    static func keyringSetup() throws -> (keyring: PrivateKeyring, server: CalDAVServer, scratch: Scratch) {
        let keyring = try PrivateKeyring()
        let server = try CalDAVServer(.radicale)
        _ = try server.makeCalendar("Phone")
        let scratch = Scratch()
        _ = scratch.ok("calendar", "add", "Home")
        scratch.environment = keyring.environment
        return (keyring, server, scratch)
    }

    /// Where `chime account add --password-stdin --name home` keeps the password.
    static let homeAttributes = ["service", "chime", "account", "home"]

    @Test("account add --password-stdin keeps the password in the keyring, not the store; sync reads it back; remove clears it")
    func passwordInKeyring() throws {
        let (keyring, server, scratch) = try Self.keyringSetup()
        scratch.input = "secret\nwhat follows is not read\n"
        let added = scratch.ok("account", "add", server.base + "/", "--user", "ann", "--password-stdin", "--name", "home")
        #expect(added.output.first == "added account 'home' with 1 calendar")
        #expect(try keyring.lookup(Self.homeAttributes) == "secret")
        // "secret" is in the store only as part of the lookup command, secret-tool.
        let stored = try String(decoding: Data(contentsOf: URL(fileURLWithPath: scratch.path)), as: UTF8.self)
        #expect(stored.components(separatedBy: "secret").count == stored.components(separatedBy: "secret-tool").count,
                "the password is in the store file")

        scratch.input = nil
        #expect(scratch.ok("sync").text == "home/Phone: 0 uploaded, 0 deleted on the server, 0 downloaded, 0 removed, 0 conflicts")
        #expect(scratch.ok("account", "remove", "home").text == "removed account 'home'")
        #expect(try keyring.lookup(Self.homeAttributes) == nil)
    }

    @Test("two stores with an account of the same name for two users keep two passwords: each syncs, and removing one leaves the other's")
    func twoStoresOneName() throws {
        let (keyring, server, ann) = try Self.keyringSetup()
        let bob = Scratch()
        bob.environment = keyring.environment
        ann.input = "secret\n"
        bob.input = "secret\n"
        _ = ann.ok("account", "add", server.base + "/", "--user", "ann", "--password-stdin", "--name", "home")
        _ = bob.ok("account", "add", server.base + "/", "--user", "bob", "--password-stdin", "--name", "home")
        #expect(try keyring.lookup(Self.homeAttributes + ["user", "ann", "server", server.base + "/"]) == "secret")
        #expect(try keyring.lookup(Self.homeAttributes + ["user", "bob", "server", server.base + "/"]) == "secret")
        ann.input = nil
        bob.input = nil
        #expect(bob.ok("account", "remove", "home").text == "removed account 'home'")
        #expect(try keyring.lookup(Self.homeAttributes + ["user", "bob"]) == nil)
        #expect(try keyring.lookup(Self.homeAttributes + ["user", "ann"]) == "secret")
        #expect(ann.ok("sync").text.hasPrefix("home/Phone: "))
    }

    @Test("account add --password-stdin refuses a wrong or missing password and keeps nothing in the keyring")
    func passwordStdinRefusals() throws {
        let (keyring, server, scratch) = try Self.keyringSetup()
        let add = ["account", "add", server.base + "/", "--user", "ann", "--password-stdin", "--name", "home"]
        scratch.input = "hunter2\n"
        try scratch.refuses(add, status: 69, mentioning: ["refused the password for user 'ann'"])
        #expect(try keyring.lookup(Self.homeAttributes) == nil)
        scratch.input = "\n"
        try scratch.refuses(add, status: 65, mentioning: ["--password-stdin", "held no password"])
        scratch.input = String(repeating: "x", count: 5000)
        try scratch.refuses(add, status: 65, mentioning: ["longer than 4096 bytes"])
        scratch.input = "secret\n"
        try scratch.refuses(add + ["--password-command", "printf secret"], status: 64, mentioning: ["exclude each other"])
        try scratch.refuses(["account", "add", server.base + "/", "--password-stdin"], status: 64, mentioning: ["needs --user"])
        try scratch.refuses(["account", "list", "--password-stdin"], status: 64, mentioning: ["are for 'chime account add'"])
        #expect(try keyring.lookup(Self.homeAttributes) == nil)
    }

    @Test("account add --password-stdin without a keyring fails clearly and adds no account")
    func passwordStdinWithoutKeyring() throws {
        let server = try CalDAVServer(.radicale)
        _ = try server.makeCalendar("Phone")
        let scratch = Scratch()
        _ = scratch.ok("calendar", "add", "Home")
        // A bus address where nothing listens: secret-tool cannot reach a keyring.
        scratch.environment = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(scratch.folder)/no-bus"]
        scratch.input = "secret\n"
        try scratch.refuses(["account", "add", server.base + "/", "--user", "ann", "--password-stdin", "--name", "home"], status: 69,
                            mentioning: ["could not be kept in the keyring", "secret-tool store exited with status 1 (secret-tool: Could not connect"])
        #expect(scratch.ok("account", "list").text.isEmpty)
    }

    @Test("a calendar the server lets the user only read is read-only in Chime: edits are refused, the server's changes still come down")
    func readOnlyCollection() throws {
        func chore(_ summary: String) -> String {
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//team//EN\r\nBEGIN:VTODO\r\nUID:team@shared\r\nDTSTAMP:20261201T080000Z\r\n"
                + "DUE:20270105T170000Z\r\nSUMMARY:\(summary)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        }
        let server = try CalDAVServer(.radicale, readOnly: ["team@shared.ics": chore("Team chore")])
        let scratch = Scratch()
        // A calendar of her own by the same name stays hers, and writable.
        _ = scratch.ok("calendar", "add", "Shared")
        let added = scratch.ok("account", "add", server.base + "/", "--user", "ann", "--password-command", "printf secret", "--name", "home")
        #expect(added.output.contains("home: Shared (home) (VEVENT,VTODO, read-only) \(server.base)/ann/shared/"), "\(added.output)")
        #expect(scratch.ok("sync").output.contains("home/Shared (home): 0 uploaded, 0 deleted on the server, 1 downloaded, 0 removed, 0 conflicts"))
        #expect(scratch.ok("calendars").output.contains { $0.hasPrefix("Shared (home)") && $0.hasSuffix("read-only") })
        try scratch.refuses(["add", "reminder", "Mine now", "--calendar", "Shared (home)"], status: 65,
                            mentioning: ["calendar 'Shared (home)' is read-only"])
        _ = scratch.add("reminder", "Mine", "--calendar", "Shared")
        let store = try scratch.store()
        let shared = try #require(try store.items(of: store.calendar(named: "Shared (home)").identifier).reminders.first)
        try scratch.refuses(["complete", String(shared.identifier.rawValue.prefix(8))], status: 65, mentioning: ["read-only"])
        // A dismissal has nowhere to go: nothing is written.
        #expect(try !store.acknowledgeAlarms(of: shared.identifier, at: Scratch.tuesdayMorning))

        // Its owner renames it: the change comes down into the read-only calendar.
        try server.putAsOwner(chore("Team chore, renamed"))
        #expect(scratch.ok("sync").output.contains("home/Shared (home): 0 uploaded, 0 deleted on the server, 1 downloaded, 0 removed, 0 conflicts"))
        #expect(try store.items(of: store.calendar(named: "Shared (home)").identifier).reminders.map(\.title) == ["Team chore, renamed"])
    }

    /// The server's account added as `home` and synced once, then its one
    /// collection and the calendar `calendar` set `readOnly` on Chime's
    /// side alone, as they were when the account was added before the
    /// server's owner changed the privileges.
    static func addedAndSynced(_ server: CalDAVServer, _ scratch: Scratch, calendar title: String, readOnly: Bool)
        throws -> (store: CalendarStore, state: SyncState, calendar: ItemCalendar) {
        _ = scratch.ok("account", "add", server.base + "/", "--user", "ann", "--password-command", "printf secret", "--name", "home")
        _ = scratch.ok("sync")
        let store = try scratch.store()
        let state = try SyncState(store: store)
        var collection = try #require(try state.collections().first)
        collection.isReadOnly = readOnly
        try state.save(collection)
        var calendar = try store.calendar(named: title)
        calendar.allowsContentModifications = !readOnly
        try store.save(calendar)
        return (store, state, calendar)
    }

    @Test("a calendar whose owner took write away after the account was added: the refused edit gives way to the server's copy, a new item stays in Chime only, the calendar turns read-only, and changes still come down")
    func writeTakenAway() throws {
        func chore(_ uid: String, _ summary: String) -> String {
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//team//EN\r\nBEGIN:VTODO\r\nUID:\(uid)\r\nDTSTAMP:20261201T080000Z\r\n"
                + "DUE:20270105T170000Z\r\nSUMMARY:\(summary)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        }
        let server = try CalDAVServer(.radicale, readOnly: ["team@shared.ics": chore("team@shared", "Team chore")])
        let scratch = Scratch()
        // As it was when the account was added, before the owner took write away: writable on both sides.
        let (store, state, shared) = try Self.addedAndSynced(server, scratch, calendar: "Shared", readOnly: false)
        var edited = try #require(try store.items(of: shared.identifier).reminders.first)
        edited.title = "Team chore, mine"
        try store.save(edited)
        _ = scratch.add("reminder", "Only here", "--calendar", "Shared")
        try server.putAsOwner(chore("review@shared", "Review"))

        let synced = scratch.ok("sync")
        #expect(synced.text == "home/Shared: 0 uploaded, 0 deleted on the server, 2 downloaded, 0 removed, 0 conflicts; "
                + "the server takes no changes here any more: the calendar is now read-only", "\(synced.output)")
        #expect(synced.errors.contains { $0.contains("/ann/shared/team%40shared.ics: the server refused the change (HTTP 403); its copy is kept") }, "\(synced.errors)")
        #expect(synced.errors.contains { $0.contains("the server refused the new item (HTTP 403); it stays in Chime only") }, "\(synced.errors)")
        #expect(try store.items(of: shared.identifier).reminders.map(\.title).sorted() == ["Only here", "Review", "Team chore"])
        #expect(try store.calendar(named: "Shared").allowsContentModifications == false)
        #expect(try state.collections().first?.isReadOnly == true)
        try scratch.refuses(["add", "reminder", "Another", "--calendar", "Shared"], status: 65, mentioning: ["calendar 'Shared' is read-only"])
        // Read-only now: nothing more is sent, so nothing more is refused.
        let again = scratch.ok("sync")
        #expect(again.text == "home/Shared: 0 uploaded, 0 deleted on the server, 0 downloaded, 0 removed, 0 conflicts" && again.errors.isEmpty,
                "\(again.output) \(again.errors)")
    }

    @Test("a calendar that was read-only when the account was added, whose owner granted write since: the next sync notices, the calendar takes changes, and they go up")
    func writeGranted() throws {
        let server = try CalDAVServer(.radicale)
        let calendarURL = try server.makeCalendar("Phone")
        _ = try server.put("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//EN\r\nBEGIN:VTODO\r\nUID:bins@phone\r\n"
                           + "DTSTAMP:20261201T080000Z\r\nSUMMARY:Put the bins out\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", in: calendarURL)
        let scratch = Scratch()
        // As it was when the account was added, before the owner granted write: read-only on both sides.
        let (store, state, _) = try Self.addedAndSynced(server, scratch, calendar: "Phone", readOnly: true)
        try scratch.refuses(["add", "reminder", "Water the plants", "--calendar", "Phone"], status: 65, mentioning: ["calendar 'Phone' is read-only"])

        let synced = scratch.ok("sync")
        #expect(synced.text == "home/Phone: 0 uploaded, 0 deleted on the server, 0 downloaded, 0 removed, 0 conflicts; "
                + "the server takes changes here now: the calendar is writable", "\(synced.output) \(synced.errors)")
        #expect(try store.calendar(named: "Phone").allowsContentModifications == true)
        #expect(try state.collections().first?.isReadOnly == false)
        _ = scratch.add("reminder", "Water the plants", "--calendar", "Phone")
        let uploaded = scratch.ok("sync")
        #expect(uploaded.text == "home/Phone: 1 uploaded, 0 deleted on the server, 0 downloaded, 0 removed, 0 conflicts", "\(uploaded.output)")
        #expect(try server.phone(["list", calendarURL]).split(separator: "\n").count == 2)
    }

    @Test("a calendar the server suddenly lists as empty is kept, with a line saying how to confirm; chime sync --allow-emptying empties it")
    func emptyingNeedsConfirmation() throws {
        let server = try CalDAVServer(.radicale)
        let calendarURL = try server.makeCalendar("Phone")
        var resources: [String] = []
        for (uid, summary) in [("bins@phone", "Put the bins out"), ("plants@phone", "Water the plants")] {
            resources.append(try server.put("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//EN\r\nBEGIN:VTODO\r\nUID:\(uid)\r\n"
                                            + "DTSTAMP:20261201T080000Z\r\nSUMMARY:\(summary)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", in: calendarURL))
        }
        let scratch = Scratch()
        _ = scratch.ok("account", "add", server.base + "/", "--user", "ann", "--password-command", "printf secret", "--name", "home")
        _ = scratch.ok("sync")
        for resource in resources { _ = try server.phone(["delete", resource]) }
        let store = try scratch.store()
        let phone = try store.calendar(named: "Phone")

        let held = scratch.ok("sync")
        #expect(held.text == "home/Phone: 0 uploaded, 0 deleted on the server, 0 downloaded, 0 removed, 0 conflicts")
        #expect(held.errors.contains { $0.contains("lists none of the 2 resources") && $0.contains("chime sync --allow-emptying") }, "\(held.errors)")
        #expect(try store.items(of: phone.identifier).reminders.count == 2)

        let confirmed = scratch.ok("sync", "--allow-emptying")
        #expect(confirmed.text == "home/Phone: 0 uploaded, 0 deleted on the server, 0 downloaded, 2 removed, 0 conflicts")
        #expect(try store.items(of: phone.identifier).reminders.isEmpty)
    }

    @Test("a conflict is listed by --status; resolve --mine puts Chime's version back and the next sync sends it; bad resolves are refused")
    func resolveConflicts() throws {
        let server = try CalDAVServer(.radicale)
        let calendarURL = try server.makeCalendar("Phone")
        func todo(_ summary: String) -> String {
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//EN\r\nBEGIN:VTODO\r\nUID:bins@phone\r\nDTSTAMP:20261201T080000Z\r\n"
                + "SUMMARY:\(summary)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        }
        let resource = try server.put(todo("Put the bins out"), in: calendarURL)
        let scratch = Scratch()
        _ = scratch.ok("account", "add", server.base + "/", "--user", "ann", "--password-command", "printf secret", "--name", "home")
        _ = scratch.ok("sync")
        let store = try scratch.store()
        let phone = try store.calendar(named: "Phone")
        var bins = try #require(try store.items(of: phone.identifier).reminders.first)
        bins.title = "Put the bins out (desktop)"
        try store.save(bins)
        _ = try server.put(todo("Put the bins out (phone)"), in: calendarURL)
        #expect(scratch.ok("sync").text == "home/Phone: 0 uploaded, 0 deleted on the server, 1 downloaded, 0 removed, 1 conflicts")
        #expect(scratch.ok("sync", "--status").text == "bins@phone: Chime's version kept aside, the server's kept (\(resource))")
        #expect(try store.items(of: phone.identifier).reminders.map(\.title) == ["Put the bins out (phone)"])

        try scratch.refuses(["sync", "resolve", "bins@phone"], status: 64, mentioning: ["one of --mine and --theirs"])
        try scratch.refuses(["sync", "resolve", "post@phone", "--mine"], status: 65, mentioning: ["'post@phone' has no conflict"])
        try scratch.refuses(["sync", "--mine"], status: 64, mentioning: ["are for 'chime sync resolve UID'"])

        #expect(scratch.ok("sync", "resolve", "bins@phone", "--mine").text == "bins@phone: Chime's version kept in Phone; the next sync sends it")
        #expect(try store.items(of: phone.identifier).reminders.map(\.title) == ["Put the bins out (desktop)"])
        #expect(scratch.ok("sync", "--status").text == "No conflicts.")
        #expect(scratch.ok("sync").text == "home/Phone: 1 uploaded, 0 deleted on the server, 0 downloaded, 0 removed, 0 conflicts")
        #expect(try server.get(resource).contains("SUMMARY:Put the bins out (desktop)"))
    }
}
