#!/usr/bin/env python3
"""Prints the paths of the test calendars an oracle package ships, one a
line, sorted, for tests that run Chime's reader over every one of them.

    calendars.py [icalendar | recurring-ical-events]

icalendar (the default) ships icalendar/tests/calendars/*.ics (with broken
ones among them on purpose: broken_ical.ics, parsing_error.ics, fuzz_*);
recurring-ical-events ships recurring_ical_events/test/calendars/*.ics.
Exit status 1 when the package or its folder is not there.
"""
import importlib
import pathlib
import sys

FOLDERS = {
    "icalendar": ("icalendar", "tests/calendars"),
    "recurring-ical-events": ("recurring_ical_events", "test/calendars"),
}


def main():
    which = sys.argv[1] if len(sys.argv) > 1 else "icalendar"
    if which not in FOLDERS or len(sys.argv) > 2:
        print(f"usage: calendars.py [{' | '.join(FOLDERS)}]", file=sys.stderr)
        return 2
    module, folder = FOLDERS[which]
    try:
        package = importlib.import_module(module)
    except ImportError as error:
        print(f"calendars.py: {which} is not installed: {error}", file=sys.stderr)
        return 1
    path = pathlib.Path(package.__file__).parent / folder
    files = sorted(path.glob("*.ics"))
    if not files:
        print(f"calendars.py: no test calendars in {path}", file=sys.stderr)
        return 1
    for file in files:
        print(file)
    return 0


if __name__ == "__main__":
    sys.exit(main())
