#!/usr/bin/env python3
"""Prints the occurrences recurring-ical-events finds in FILE between FROM
and TO, one JSON object a line, sorted, for Chime's expansion tests to hold
their own against.

    expand.py [--components VEVENT,VTODO] FILE FROM TO
    expand.py [--components VEVENT,VTODO] --each FROM TO FILE...

FROM and TO are dates (2026-03-01) or UTC instants (2026-03-01T00:00:00Z);
an occurrence is printed when it overlaps [FROM, TO), as recurring-ical-events
decides. Each line has the keys

    uid            the UID
    recurrence-id  the original start of the occurrence, for a series (a
                   component with RRULE or RDATE, or with RECURRENCE-ID
                   overrides); absent for a single item
    override       true when a RECURRENCE-ID component supplied it
    start, end     UTC instants (2026-03-29T07:00:00Z) for timed items,
                   dates (2026-03-29) for all-day ones, local times without
                   a Z (2026-03-29T09:00:00) for floating ones
    summary        the SUMMARY, or null

sorted by start, then uid, then recurrence-id. Exit status 1 when the file
cannot be read or expanded (with the reason on standard error), 2 for a bad
command line.

With --each, every FILE is expanded in this one process (Python's start,
0.15 s, is most of a small file's time) and one JSON object is printed a
file, in the order given: {"file": FILE, "occurrences": [rows as above]},
or {"file": FILE, "error": "why"} for a file that cannot be read or
expanded; the exit status is then 0.
"""
import argparse
import datetime
import json
import sys

import icalendar
import recurring_ical_events


def parse_bound(text):
    """A date or a UTC instant from the command line, as the query takes it."""
    try:
        if "T" in text:
            if not text.endswith("Z"):
                raise ValueError("an instant must be in UTC, ending in Z")
            return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)
        return datetime.date.fromisoformat(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{text!r}: {error}") from None


def written(value):
    """A start, end or recurrence-id in the output's form (see the module's text)."""
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            return value.strftime("%Y-%m-%dT%H:%M:%S")
        return value.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(value, datetime.date):
        return value.isoformat()
    raise ValueError(f"not a date or date-time: {value!r}")


def end_of(occurrence, start):
    """DTEND (or DUE), else DTSTART + DURATION, else RFC 5545's default:
    a day for an all-day item, nothing for a timed one."""
    for name in ("DTEND", "DUE"):
        if name in occurrence:
            return occurrence[name].dt
    if "DURATION" in occurrence:
        return start + occurrence["DURATION"].dt
    if not isinstance(start, datetime.datetime):
        return start + datetime.timedelta(days=1)
    return start


class Unreadable(Exception):
    """The file cannot be read or expanded: the message says why."""


def expand(path, components, start, end):
    """The rows (see the module's text) of the file at `path`, sorted."""
    try:
        with open(path, "rb") as file:
            calendar = icalendar.Calendar.from_ical(file.read())
    except (OSError, ValueError) as error:
        raise Unreadable(str(error)) from None

    # recurring-ical-events gives every occurrence a RECURRENCE-ID, even a
    # single event's; only a series' are worth comparing, and an override
    # is told apart by the component it came from.
    series = set()
    overrides = set()
    for component in calendar.walk():
        if component.name not in components or "UID" not in component:
            continue
        uid = str(component["UID"])
        if "RRULE" in component or "RDATE" in component:
            series.add(uid)
        if "RECURRENCE-ID" in component:
            series.add(uid)
            overrides.add((uid, written(component["RECURRENCE-ID"].dt)))

    rows = []
    try:
        occurrences = recurring_ical_events.of(calendar, components=components).between(start, end)
        for occurrence in occurrences:
            uid = str(occurrence.get("UID", ""))
            occurrence_start = occurrence["DTSTART"].dt
            row = {"uid": uid}
            if uid in series and "RECURRENCE-ID" in occurrence:
                recurrence = written(occurrence["RECURRENCE-ID"].dt)
                row["recurrence-id"] = recurrence
                row["override"] = (uid, recurrence) in overrides
            row["start"] = written(occurrence_start)
            row["end"] = written(end_of(occurrence, occurrence_start))
            summary = occurrence.get("SUMMARY")
            row["summary"] = None if summary is None else str(summary)
            rows.append(row)
    except Exception as error:  # recurring-ical-events raises many kinds; all mean "could not expand"
        raise Unreadable(f"{type(error).__name__}: {error}") from None

    rows.sort(key=lambda row: (row["start"], row["uid"], row.get("recurrence-id", "")))
    return rows


def main():
    parser = argparse.ArgumentParser(
        description="Occurrences of an iCalendar file, as recurring-ical-events gives them.",
        usage="%(prog)s [--components NAMES] FILE FROM TO\n       %(prog)s [--components NAMES] --each FROM TO FILE...")
    parser.add_argument("--components", default="VEVENT", help="comma-separated component names (default VEVENT)")
    parser.add_argument("--each", action="store_true", help="FROM TO FILE...: expand every file, one JSON object a file")
    parser.add_argument("arguments", nargs="+", metavar="ARGUMENT", help="FILE FROM TO, or with --each FROM TO FILE...")
    arguments = parser.parse_args()
    components = [name.strip().upper() for name in arguments.components.split(",") if name.strip()]
    if arguments.each:
        if len(arguments.arguments) < 2:
            parser.error("--each takes FROM TO FILE...")
        bounds, files = arguments.arguments[:2], arguments.arguments[2:]
    else:
        if len(arguments.arguments) != 3:
            parser.error("takes FILE FROM TO")
        files, bounds = arguments.arguments[:1], arguments.arguments[1:]
    try:
        start, end = (parse_bound(text) for text in bounds)
    except argparse.ArgumentTypeError as error:
        parser.error(str(error))

    if arguments.each:
        for path in files:
            try:
                result = {"file": path, "occurrences": expand(path, components, start, end)}
            except Unreadable as error:
                result = {"file": path, "error": str(error)}
            print(json.dumps(result, ensure_ascii=False, sort_keys=True))
        return 0
    try:
        rows = expand(files[0], components, start, end)
    except Unreadable as error:
        print(f"expand.py: {files[0]}: {error}", file=sys.stderr)
        return 1
    for row in rows:
        print(json.dumps(row, ensure_ascii=False, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
