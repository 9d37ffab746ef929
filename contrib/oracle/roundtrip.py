#!/usr/bin/env python3
"""Checks an iCalendar file with the Python world's parser, icalendar:
used on Chime's exports.

    roundtrip.py [--strict] FILE

Reads FILE (one or more VCALENDARs), collects every error icalendar
reports (a line it cannot split, a value it cannot read), writes the result
out with icalendar and reads that again, and checks that the second reading
has the same components and properties as the first. With --strict it also
checks what a conforming writer must do and icalendar forgives: CRLF line
ends, lines of at most 75 octets, the properties RFC 5545 requires
(VCALENDAR: PRODID, VERSION; VEVENT, VTODO, VJOURNAL: UID, DTSTAMP; VALARM:
ACTION, TRIGGER), and a VTIMEZONE for every TZID used.

Exit status 0 with one JSON line on standard output, the count of each
component ({"calendars": 1, "components": {"VEVENT": 2, ...}}); 1 with one
line per problem on standard error; 2 for a bad command line.
"""
import argparse
import json
import sys
import warnings

import icalendar

REQUIRED = {
    "VCALENDAR": ("PRODID", "VERSION"),
    "VEVENT": ("UID", "DTSTAMP"),
    "VTODO": ("UID", "DTSTAMP"),
    "VJOURNAL": ("UID", "DTSTAMP"),
    "VALARM": ("ACTION", "TRIGGER"),
}


def shape(calendars):
    """Each component's name with its property names, in order: what a
    reading of the file keeps, to compare two readings with."""
    return [(component.name, sorted(component.keys())) for calendar in calendars for component in calendar.walk()]


def line_problems(data):
    """Line ends and lengths, with line numbers (of the file as written, folded)."""
    problems = []
    lines = data.split(b"\n")
    unended = lines.pop()  # empty when the file ends with a line end
    for number, line in enumerate(lines + ([unended] if unended else []), start=1):
        if number > len(lines):
            problems.append(f"line {number}: the last line has no CRLF after it")
        elif not line.endswith(b"\r"):
            problems.append(f"line {number}: ends with LF alone, not CRLF")
        else:
            line = line[:-1]
        if len(line) > 75:
            problems.append(f"line {number}: {len(line)} octets, more than 75 (RFC 5545 3.1)")
        if len(problems) >= 20:
            problems.append("(more line problems left unsaid)")
            break
    return problems


def structure_problems(calendars):
    problems = []
    for index, calendar in enumerate(calendars, start=1):
        zones = {str(zone.get("TZID")) for zone in calendar.walk("VTIMEZONE")}
        used = set()
        for component in calendar.walk():
            where = f"calendar {index}, {component.name} {component.get('UID', '')}".rstrip()
            for name in REQUIRED.get(component.name, ()):
                if name not in component:
                    problems.append(f"{where}: no {name} (required by RFC 5545)")
            for name, values in component.property_items(recursive=False, sorted=False):
                for value in values if isinstance(values, list) else [values]:
                    tzid = getattr(value, "params", {}).get("TZID")
                    if tzid:
                        used.add(str(tzid))
        for tzid in sorted(used - zones):
            problems.append(f"calendar {index}: TZID {tzid} is used but has no VTIMEZONE")
    return problems


def read(data):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        calendars = icalendar.Calendar.from_ical(data, multiple=True)
    return calendars, [str(warning.message) for warning in caught]


def main():
    parser = argparse.ArgumentParser(description="Check an iCalendar file with icalendar.")
    parser.add_argument("--strict", action="store_true", help="also check line ends and lengths, required properties and VTIMEZONEs")
    parser.add_argument("file")
    arguments = parser.parse_args()
    name = arguments.file

    try:
        with open(name, "rb") as file:
            data = file.read()
    except OSError as error:
        print(f"roundtrip.py: {name}: {error}", file=sys.stderr)
        return 1

    problems = []
    try:
        calendars, cautions = read(data)
    except Exception as error:  # icalendar raises ValueError and others on text it cannot read at all
        print(f"roundtrip.py: {name}: icalendar cannot read it: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    for caution in cautions:
        print(f"roundtrip.py: {name}: icalendar warns: {caution}", file=sys.stderr)
    if not calendars:
        problems.append("no VCALENDAR in it")
    for calendar in calendars:
        for component in calendar.walk():
            for property_name, message in component.errors:
                problems.append(f"{component.name} {component.get('UID', '')}: {property_name or 'a line'}: {message}".replace("  ", " "))

    if not problems:
        try:
            again, _ = read(b"".join(calendar.to_ical() for calendar in calendars))
            if shape(again) != shape(calendars):
                problems.append("written out by icalendar and read again, it has other components or properties")
        except Exception as error:
            problems.append(f"icalendar cannot read its own writing of it: {type(error).__name__}: {error}")

    if arguments.strict:
        problems += line_problems(data)
        problems += structure_problems(calendars)

    if problems:
        for problem in problems:
            print(f"roundtrip.py: {name}: {problem}", file=sys.stderr)
        return 1
    counts = {}
    for calendar in calendars:
        for component in calendar.walk():
            if component.name != "VCALENDAR":
                counts[component.name] = counts.get(component.name, 0) + 1
    print(json.dumps({"calendars": len(calendars), "components": counts}, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
