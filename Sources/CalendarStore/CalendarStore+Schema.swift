import SQLiteDatabase

extension CalendarStore {
    /// The schema's history. Append a migration for every change; never edit
    /// or reorder one that has shipped: stores in the field have run it.
    static var migrator: Migrator {
        var migrator = Migrator()
        migrator.registerMigration("v1: calendars, items, alarms, state") { db in
            try db.executeScript("""
                CREATE TABLE calendars (
                    id TEXT PRIMARY KEY NOT NULL,
                    title TEXT NOT NULL COLLATE NOCASE UNIQUE,
                    color TEXT NOT NULL,
                    subscription_url TEXT,
                    allows_modifications INTEGER NOT NULL DEFAULT 1,
                    created_at REAL NOT NULL
                );
                CREATE TABLE items (
                    id TEXT PRIMARY KEY NOT NULL,
                    calendar_id TEXT NOT NULL REFERENCES calendars(id) ON DELETE CASCADE,
                    type TEXT NOT NULL CHECK (type IN ('event', 'reminder')),
                    title TEXT NOT NULL,
                    location TEXT NOT NULL DEFAULT '',
                    notes TEXT NOT NULL DEFAULT '',
                    url TEXT,
                    start_kind TEXT, start_local INTEGER, start_zone TEXT,
                    end_kind TEXT, end_local INTEGER, end_zone TEXT,
                    due_kind TEXT, due_local INTEGER, due_zone TEXT,
                    rrule TEXT,
                    exdates TEXT NOT NULL DEFAULT '',
                    rdates TEXT NOT NULL DEFAULT '',
                    priority INTEGER NOT NULL DEFAULT 0 CHECK (priority BETWEEN 0 AND 9),
                    completed INTEGER NOT NULL DEFAULT 0,
                    completion_date REAL,
                    external_key TEXT,
                    series_id TEXT REFERENCES items(id) ON DELETE CASCADE,
                    original_start INTEGER,
                    due_instant INTEGER,
                    -- The instants an event may occupy (widened for floating
                    -- and all-day times; NULL high: no end), and whether it is
                    -- short (one event of at most a week) or long (longer, or
                    -- recurring), which decides how overlap queries find it.
                    range_low INTEGER,
                    range_high INTEGER,
                    is_long INTEGER,
                    created_at REAL NOT NULL,
                    modified_at REAL NOT NULL
                );
                CREATE UNIQUE INDEX items_external_key ON items(calendar_id, external_key) WHERE external_key IS NOT NULL;
                CREATE UNIQUE INDEX items_detached ON items(series_id, original_start) WHERE series_id IS NOT NULL;
                CREATE INDEX items_reminders_due ON items(completed, due_instant) WHERE type = 'reminder';
                CREATE INDEX items_reminders_completed ON items(completion_date) WHERE type = 'reminder' AND completed = 1;
                CREATE TABLE alarms (
                    id TEXT PRIMARY KEY NOT NULL,
                    item_id TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('absolute', 'relative', 'proximity')),
                    absolute_at REAL,
                    offset_seconds INTEGER,
                    location_title TEXT,
                    latitude REAL CHECK (latitude BETWEEN -90 AND 90),
                    longitude REAL CHECK (longitude BETWEEN -180 AND 180),
                    radius REAL CHECK (radius > 0),
                    proximity TEXT CHECK (proximity IN ('enter', 'leave'))
                );
                CREATE INDEX alarms_item ON alarms(item_id);
                CREATE INDEX items_short_events ON items(range_low) WHERE type = 'event' AND is_long = 0;
                CREATE INDEX items_long_events ON items(range_low) WHERE type = 'event' AND is_long = 1;
                CREATE TABLE store_state (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    change_counter INTEGER NOT NULL,
                    default_event_calendar TEXT REFERENCES calendars(id) ON DELETE SET NULL,
                    default_reminder_calendar TEXT REFERENCES calendars(id) ON DELETE SET NULL
                );
                INSERT INTO store_state (id, change_counter) VALUES (1, 0);
                """)
        }
        migrator.registerMigration("v2: covering range indexes, has_alarms") { db in
            // With the end in the index, a query skips ended series without
            // reading their rows. has_alarms spares a query the alarms probe
            // for the (many) items that have none.
            try db.executeScript("""
                DROP INDEX items_short_events;
                DROP INDEX items_long_events;
                CREATE INDEX items_short_events ON items(range_low, range_high) WHERE type = 'event' AND is_long = 0;
                CREATE INDEX items_long_events ON items(range_low, range_high) WHERE type = 'event' AND is_long = 1;
                ALTER TABLE items ADD COLUMN has_alarms INTEGER NOT NULL DEFAULT 0;
                UPDATE items SET has_alarms = EXISTS (SELECT 1 FROM alarms WHERE alarms.item_id = items.id);
                """)
        }
        migrator.registerMigration("v3: holiday years, settings") { db in
            // Imported holiday data: it overrides the bundled data year by
            // year, so a year is a unit (its days, its source, its hash).
            try db.executeScript("""
                CREATE TABLE holiday_years (
                    region TEXT NOT NULL,
                    year INTEGER NOT NULL,
                    source_format TEXT NOT NULL,
                    source_location TEXT NOT NULL,
                    content_hash TEXT NOT NULL,
                    notices TEXT NOT NULL DEFAULT '',
                    imported_at REAL NOT NULL,
                    PRIMARY KEY (region, year)
                );
                CREATE TABLE holiday_days (
                    region TEXT NOT NULL,
                    year INTEGER NOT NULL,
                    date TEXT NOT NULL,
                    is_off_day INTEGER NOT NULL,
                    name TEXT NOT NULL,
                    PRIMARY KEY (region, year, date),
                    FOREIGN KEY (region, year) REFERENCES holiday_years(region, year) ON DELETE CASCADE
                );
                CREATE TABLE settings (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                );
                """)
        }
        migrator.registerMigration("v4: delivery log") { db in
            // One row per firing that was shown or passed over, keyed by
            // alarm and occurrence: what makes every firing happen once.
            try db.executeScript("""
                CREATE TABLE deliveries (
                    key TEXT PRIMARY KEY NOT NULL,
                    alarm_id TEXT NOT NULL,
                    item_id TEXT NOT NULL,
                    title TEXT NOT NULL,
                    due_at INTEGER NOT NULL,
                    recorded_at REAL NOT NULL,
                    outcome TEXT NOT NULL CHECK (outcome IN ('showing', 'delivered', 'late', 'missed', 'interrupted'))
                );
                CREATE INDEX deliveries_due ON deliveries(due_at);
                """)
        }
        migrator.registerMigration("v5: snoozes") { db in
            // A snoozed firing rings again at fire_at, under its own key.
            try db.executeScript("""
                CREATE TABLE snoozes (
                    key TEXT PRIMARY KEY NOT NULL,
                    firing_key TEXT NOT NULL,
                    alarm_id TEXT NOT NULL,
                    item_id TEXT NOT NULL,
                    title TEXT NOT NULL,
                    due_at INTEGER NOT NULL,
                    fire_at INTEGER NOT NULL,
                    created_at REAL NOT NULL
                );
                CREATE INDEX snoozes_fire_at ON snoozes(fire_at);
                """)
        }
        migrator.registerMigration("v6: item change log") { db in
            // Which items each commit touched, in order, so that the daemon
            // re-plans those and not the whole store. A detached occurrence
            // changes its series' firings too, so the series is logged with
            // it. Rows deleted by a cascade (a calendar removed) fire the
            // delete trigger as well. Writers prune the log's head
            // (`pruneItemChanges`); a reader that falls behind the head
            // re-plans everything.
            try db.executeScript("""
                CREATE TABLE item_changes (item_id TEXT NOT NULL);
                CREATE TRIGGER item_changes_insert AFTER INSERT ON items BEGIN
                    INSERT INTO item_changes (item_id) VALUES (NEW.id);
                    INSERT INTO item_changes (item_id) SELECT NEW.series_id WHERE NEW.series_id IS NOT NULL;
                END;
                CREATE TRIGGER item_changes_update AFTER UPDATE ON items BEGIN
                    INSERT INTO item_changes (item_id) VALUES (NEW.id);
                    INSERT INTO item_changes (item_id) SELECT NEW.series_id WHERE NEW.series_id IS NOT NULL;
                    INSERT INTO item_changes (item_id) SELECT OLD.series_id
                        WHERE OLD.series_id IS NOT NULL AND OLD.series_id IS NOT NEW.series_id;
                END;
                CREATE TRIGGER item_changes_delete AFTER DELETE ON items BEGIN
                    INSERT INTO item_changes (item_id) VALUES (OLD.id);
                    INSERT INTO item_changes (item_id) SELECT OLD.series_id WHERE OLD.series_id IS NOT NULL;
                END;
                """)
        }
        migrator.registerMigration("v7: missed windows per alarm") { db in
            // How late a missed firing of the alarm is still shown; NULL: the daemon's default.
            try db.executeScript("ALTER TABLE alarms ADD COLUMN missed_window INTEGER CHECK (missed_window >= 0);")
        }
        migrator.registerMigration("v8: geofence states, last position") { db in
            // What chimed's geofence monitor knows between runs, so that a
            // restart does not fire an enter again: one row per location
            // alarm (no foreign key: saving an item rewrites its alarms under
            // the same identifiers, and the state must survive that), and one
            // row for the newest fix the monitor took and the newest position
            // fed in, which a daemon that was not running evaluates at start.
            try db.executeScript("""
                CREATE TABLE geofence_states (
                    alarm_id TEXT PRIMARY KEY NOT NULL,
                    presence TEXT NOT NULL CHECK (presence IN ('unknown', 'inside', 'outside')),
                    last_fix_at REAL,
                    dwell_started_at REAL,
                    last_fired_at REAL
                );
                CREATE TABLE location_state (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    latest_fix_at REAL,
                    latitude REAL CHECK (latitude BETWEEN -90 AND 90),
                    longitude REAL CHECK (longitude BETWEEN -180 AND 180),
                    accuracy REAL CHECK (accuracy >= 0),
                    position_at REAL,
                    recorded_at REAL
                );
                INSERT INTO location_state (id) VALUES (1);
                CREATE INDEX alarms_proximity ON alarms(item_id) WHERE kind = 'proximity';
                """)
        }
        migrator.registerMigration("v9: dwell and first-fix firing of location alarms") { db in
            try db.executeScript("""
                ALTER TABLE alarms ADD COLUMN dwell INTEGER NOT NULL DEFAULT 0 CHECK (dwell >= 0);
                ALTER TABLE alarms ADD COLUMN fires_on_first_fix INTEGER NOT NULL DEFAULT 0 CHECK (fires_on_first_fix IN (0, 1));
                """)
        }
        migrator.registerMigration("v10: alarms kept in item order") { db in
            // Alarms are always read and rewritten by item, so they are kept
            // clustered by (item, position): an item's alarms are one b-tree
            // range, found without a second index and read in order without
            // a sort, and a save writes one tree and the identifier index
            // instead of four structures. The kind check is spelt out:
            // SQLite builds a temporary table for every row it checks
            // against an IN list of three or more values.
            try db.executeScript("""
                CREATE TABLE alarms_v10 (
                    item_id TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    id TEXT NOT NULL UNIQUE,
                    kind TEXT NOT NULL CHECK (kind = 'absolute' OR kind = 'relative' OR kind = 'proximity'),
                    absolute_at REAL,
                    offset_seconds INTEGER,
                    location_title TEXT,
                    latitude REAL CHECK (latitude BETWEEN -90 AND 90),
                    longitude REAL CHECK (longitude BETWEEN -180 AND 180),
                    radius REAL CHECK (radius > 0),
                    proximity TEXT CHECK (proximity IN ('enter', 'leave')),
                    missed_window INTEGER CHECK (missed_window >= 0),
                    dwell INTEGER NOT NULL DEFAULT 0 CHECK (dwell >= 0),
                    fires_on_first_fix INTEGER NOT NULL DEFAULT 0 CHECK (fires_on_first_fix IN (0, 1)),
                    PRIMARY KEY (item_id, position)
                ) WITHOUT ROWID;
                INSERT INTO alarms_v10 (item_id, position, id, kind, absolute_at, offset_seconds, location_title, latitude, longitude,
                                        radius, proximity, missed_window, dwell, fires_on_first_fix)
                    SELECT item_id, position, id, kind, absolute_at, offset_seconds, location_title, latitude, longitude,
                           radius, proximity, missed_window, dwell, fires_on_first_fix FROM alarms;
                DROP TABLE alarms;
                ALTER TABLE alarms_v10 RENAME TO alarms;
                CREATE INDEX alarms_proximity ON alarms(item_id) WHERE kind = 'proximity';
                """)
        }
        migrator.registerMigration("v11: notifications on screen") { db in
            // Which server notification shows which firing, so that a daemon
            // started again takes them back and their buttons answer it. One
            // row per root key: a snoozed firing shows in its root's place.
            try db.executeScript("""
                CREATE TABLE notifications_shown (
                    root_key TEXT PRIMARY KEY NOT NULL,
                    key TEXT NOT NULL,
                    server_id INTEGER NOT NULL CHECK (server_id > 0),
                    server TEXT NOT NULL,
                    firing TEXT NOT NULL,
                    shown_at REAL NOT NULL
                );
                CREATE INDEX notifications_shown_key ON notifications_shown(key);
                """)
        }
        migrator.registerMigration("v12: zoned times that name the later of a fold's two instants") { db in
            // No column changes: such a time is stored with the kind
            // 'zoned-later', which a store of an earlier version cannot read;
            // the version step makes an older chime refuse the store whole.
            try db.executeScript("SELECT 1;")
        }
        migrator.registerMigration("v13: an alarm at the due time for reminders saved without one") { db in
            // A due time now implies an alarm (chime add reminder stores one
            // unless --no-alarm): reminders saved before, when a due time rang
            // nothing, get the alarm they would get now, at the due time or
            // at 09:00 on a due date, so that what they show is what rings.
            // Completed ones are history and stay as they were.
            try db.executeScript("""
                INSERT INTO alarms (item_id, position, id, kind, offset_seconds)
                    SELECT id, 0, lower(hex(randomblob(16))), 'relative', CASE due_kind WHEN 'date' THEN 32400 ELSE 0 END
                    FROM items WHERE type = 'reminder' AND completed = 0 AND due_kind IS NOT NULL AND has_alarms = 0;
                UPDATE items SET has_alarms = 1
                    WHERE type = 'reminder' AND completed = 0 AND due_kind IS NOT NULL AND has_alarms = 0;
                """)
        }
        migrator.registerMigration("v14: iCalendar origins, structured locations, unmodelled alarm lines") { db in
            // What an item read from an iCalendar file or server keeps to be
            // written back and to tell a newer copy from an older one: its
            // SEQUENCE (NULL: the item has no origin), LAST-MODIFIED (Unix
            // seconds) and the content lines Chime has no field for. An
            // event's structured location is NULL in all four columns when
            // it has none. An alarm's unmodelled lines are NULL when empty.
            // All appended, so that the hot reads which do not select them
            // pay nothing for them.
            try db.executeScript("""
                ALTER TABLE items ADD COLUMN structured_title TEXT;
                ALTER TABLE items ADD COLUMN structured_latitude REAL CHECK (structured_latitude BETWEEN -90 AND 90);
                ALTER TABLE items ADD COLUMN structured_longitude REAL CHECK (structured_longitude BETWEEN -180 AND 180);
                ALTER TABLE items ADD COLUMN structured_radius REAL CHECK (structured_radius > 0);
                ALTER TABLE items ADD COLUMN ical_sequence INTEGER CHECK (ical_sequence >= 0);
                ALTER TABLE items ADD COLUMN ical_last_modified INTEGER;
                ALTER TABLE items ADD COLUMN ical_unmodelled TEXT;
                ALTER TABLE alarms ADD COLUMN unmodelled TEXT;
                """)
        }
        migrator.registerMigration("v15: subscriptions") { db in
            // One row per subscribed calendar: where its feed is, how often
            // to fetch it, the validators of the last good answer (for a
            // conditional GET) and how the last attempts went. The last good
            // copy of the feed is the calendar's items themselves; the body
            // is not kept. next_attempt_at is what `subscriptionsDue` asks
            // for, kept up to date by every write of the row.
            try db.executeScript("""
                CREATE TABLE subscriptions (
                    calendar_id TEXT PRIMARY KEY NOT NULL REFERENCES calendars(id) ON DELETE CASCADE,
                    url TEXT NOT NULL CHECK (url != ''),
                    refresh_interval INTEGER NOT NULL CHECK (refresh_interval > 0),
                    entity_tag TEXT,
                    last_modified_header TEXT,
                    last_attempt_at INTEGER,
                    last_success_at INTEGER,
                    last_error TEXT,
                    failures INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0),
                    next_attempt_at INTEGER NOT NULL
                );
                CREATE INDEX subscriptions_next_attempt ON subscriptions(next_attempt_at);
                """)
        }
        migrator.registerMigration("v16: when an alarm was last acknowledged") { db in
            // RFC 9074 ACKNOWLEDGED, Unix seconds (UTC); NULL: never.
            try db.execute("ALTER TABLE alarms ADD COLUMN acknowledged INTEGER")
        }
        migrator.registerMigration("v17: snoozes made on another device") { db in
            // Thunderbird's X-MOZ-SNOOZE-TIME: when the firing rings again, and
            // the start of the occurrence it is of (NULL: the only one), Unix seconds.
            try db.execute("ALTER TABLE alarms ADD COLUMN snoozed_until INTEGER")
            try db.execute("ALTER TABLE alarms ADD COLUMN snoozed_occurrence INTEGER")
        }
        migrator.registerMigration("v18: days of leave") { db in
            // The person's own days off (annual leave, sick leave): every
            // region's workday calendar takes them as days off. A date, as
            // YYYY-MM-DD, once.
            try db.executeScript("""
                CREATE TABLE leave_days (
                    date TEXT PRIMARY KEY NOT NULL CHECK (length(date) = 10),
                    name TEXT NOT NULL DEFAULT '',
                    added_at REAL NOT NULL
                );
                """)
        }
        migrator.registerMigration("v19: days worked beside days of leave") { db in
            // A day the person works though the calendars have it off (加班):
            // the same table, each date one kind or the other.
            try db.execute("ALTER TABLE leave_days RENAME TO personal_days")
            try db.execute("ALTER TABLE personal_days ADD COLUMN kind TEXT NOT NULL DEFAULT 'leave' CHECK (kind IN ('leave', 'work'))")
        }
        migrator.registerMigration("v20: the rules on workdays, indexed") { db in
            // Whether workday rules are in use (chime agenda, the daemon's
            // holiday notice) without reading every item: 30 ms on 110,000.
            try db.execute("CREATE INDEX items_workday_rules ON items(rrule) WHERE rrule LIKE '%X-WORKDAY=%'")
        }
        migrator.registerMigration("v21: half days") { db in
            // Half a day of leave or of work (请半天假): NULL, the whole day.
            try db.execute("ALTER TABLE personal_days ADD COLUMN half TEXT CHECK (half IN ('morning', 'afternoon'))")
        }
        return migrator
    }
}
