#!/usr/bin/env python3
"""Prints the occurrences recurring-ical-events finds in FILE between FROM
and TO, one JSON object a line, sorted, for Chime's expansion tests to hold
their own against.

    expand.py [--components VEVENT,VTODO] FILE FROM TO

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


def main():
    parser = argparse.ArgumentParser(description="Occurrences of an iCalendar file, as recurring-ical-events gives them.")
    parser.add_argument("--components", default="VEVENT", help="comma-separated component names (default VEVENT)")
    parser.add_argument("file")
    parser.add_argument("start", type=parse_bound, metavar="FROM")
    parser.add_argument("end", type=parse_bound, metavar="TO")
    arguments = parser.parse_args()
    components = [name.strip().upper() for name in arguments.components.split(",") if name.strip()]

    try:
        with open(arguments.file, "rb") as file:
            calendar = icalendar.Calendar.from_ical(file.read())
    except (OSError, ValueError) as error:
        print(f"expand.py: {arguments.file}: {error}", file=sys.stderr)
        return 1

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
        occurrences = recurring_ical_events.of(calendar, components=components).between(arguments.start, arguments.end)
        for occurrence in occurrences:
            uid = str(occurrence.get("UID", ""))
            start = occurrence["DTSTART"].dt
            row = {"uid": uid}
            if uid in series and "RECURRENCE-ID" in occurrence:
                recurrence = written(occurrence["RECURRENCE-ID"].dt)
                row["recurrence-id"] = recurrence
                row["override"] = (uid, recurrence) in overrides
            row["start"] = written(start)
            row["end"] = written(end_of(occurrence, start))
            summary = occurrence.get("SUMMARY")
            row["summary"] = None if summary is None else str(summary)
            rows.append(row)
    except Exception as error:  # recurring-ical-events raises many kinds; all mean "could not expand"
        print(f"expand.py: {arguments.file}: {type(error).__name__}: {error}", file=sys.stderr)
        return 1

    rows.sort(key=lambda row: (row["start"], row["uid"], row.get("recurrence-id", "")))
    for row in rows:
        print(json.dumps(row, ensure_ascii=False, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
