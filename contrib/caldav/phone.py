#!/usr/bin/env python3
"""Plays "the phone" against a CalDAV server, with Python's caldav library
(from .build/caldav-venv, which contrib/caldav/setup makes): what the sync
tests use to change a server behind Chime's back, as another device would.

  phone.py URL USER PASSWORD make-calendar NAME [COMPONENTS]
      makes a calendar in the user's calendar home (COMPONENTS: VEVENT,VTODO
      by default) and prints its URL
  phone.py URL USER PASSWORD put CALENDAR-URL FILE
      stores the iCalendar object in FILE in the calendar, prints the
      resource's URL
  phone.py URL USER PASSWORD get RESOURCE-URL
      prints the resource's iCalendar text
  phone.py URL USER PASSWORD delete RESOURCE-URL
      deletes the resource
  phone.py URL USER PASSWORD list CALENDAR-URL
      prints each resource's URL in the calendar, one a line, sorted

USER and PASSWORD may be "-" for a server without authentication. A failure
prints one line on standard error and exits 1.
"""
import sys

import caldav


def main(argv):
    if len(argv) < 5:
        sys.stderr.write(__doc__)
        return 64
    url, user, password, command = argv[1:5]
    rest = argv[5:]
    client = caldav.DAVClient(url=url, username=None if user == "-" else user, password=None if password == "-" else password)
    if command == "make-calendar" and 1 <= len(rest) <= 2:
        components = (rest[1] if len(rest) == 2 else "VEVENT,VTODO").split(",")
        calendar = client.principal().make_calendar(name=rest[0], supported_calendar_component_set=components)
        print(calendar.url)
    elif command == "put" and len(rest) == 2:
        with open(rest[1], encoding="utf-8") as source:
            text = source.read()
        calendar = client.calendar(url=rest[0])
        kind = caldav.Todo if "BEGIN:VTODO" in text else caldav.Event
        made = calendar.add_object(kind, text, increase_seqno=False)
        print(made.url)
    elif command == "get" and len(rest) == 1:
        resource = caldav.CalendarObjectResource(client=client, url=rest[0])
        resource.load()
        sys.stdout.write(resource.data)
    elif command == "delete" and len(rest) == 1:
        caldav.CalendarObjectResource(client=client, url=rest[0]).delete()
    elif command == "list" and len(rest) == 1:
        calendar = client.calendar(url=rest[0])
        # A Depth 1 PROPFIND of the members: caldav's objects() goes by
        # sync-collection, where Radicale's first round lists deleted
        # resources too (as 404s), which caldav returns as objects.
        for url in sorted(str(calendar.url.join(url)) for url, _, _ in calendar.children()):
            print(url)
    else:
        sys.stderr.write(__doc__)
        return 64
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except Exception as error:  # one line, for the test's message
        print(f"phone.py {' '.join(sys.argv[4:5])}: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(1)
