#!/usr/bin/env python3
"""Fills a Xandikos calendar with generated resources in one git commit:
what the sync tests use for a collection of 10,000 items, which one PUT each
(a commit each, on a tree that grows) would take minutes to make.

  seed-xandikos.py FOLDER COUNT

FOLDER is the calendar's folder in Xandikos's storage (a git repository
whose index Xandikos reads); COUNT resources item-NNNNN@bulk.ics are added,
even ones a VEVENT (DTSTART, 30 minutes), odd ones a VTODO (DUE), each with
one VALARM ten minutes before and SUMMARY "Item N". Prints "seeded COUNT".
Uses dulwich, which Xandikos stands on.
"""
import sys
import time

from dulwich.index import build_index_from_tree
from dulwich.objects import Blob, Commit
from dulwich.repo import Repo


def resource(index):
    kind = "VTODO" if index % 2 else "VEVENT"
    when = f"2027{1 + index % 12:02d}{1 + index % 28:02d}T09{index % 60:02d}00Z"
    timing = f"DTSTART:{when}\r\nDURATION:PT30M\r\n" if kind == "VEVENT" else f"DUE:{when}\r\n"
    return (f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//chime tests//seed//EN\r\nBEGIN:{kind}\r\n"
            f"UID:item-{index:05d}@bulk\r\nDTSTAMP:20261201T080000Z\r\n{timing}SUMMARY:Item {index}\r\n"
            f"BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Item {index}\r\nTRIGGER:-PT10M\r\nEND:VALARM\r\n"
            f"END:{kind}\r\nEND:VCALENDAR\r\n")


def main(argv):
    if len(argv) != 3 or not argv[2].isdigit():
        sys.stderr.write(__doc__)
        return 64
    repo = Repo(argv[1])
    head = repo[repo.head()]
    tree = repo[head.tree]
    for index in range(int(argv[2])):
        blob = Blob.from_string(resource(index).encode())
        repo.object_store.add_object(blob)
        tree.add(f"item-{index:05d}@bulk.ics".encode(), 0o100644, blob.id)
    repo.object_store.add_object(tree)
    commit = Commit()
    commit.tree = tree.id
    commit.parents = [head.id]
    commit.author = commit.committer = b"chime tests <tests@chime.invalid>"
    commit.commit_time = commit.author_time = int(time.time())
    commit.commit_timezone = commit.author_timezone = 0
    commit.message = b"Seed the collection."
    repo.object_store.add_object(commit)
    repo.refs[b"HEAD"] = commit.id
    # Xandikos lists a collection from its index, not from HEAD.
    build_index_from_tree(repo.path, repo.index_path(), repo.object_store, tree.id)
    print(f"seeded {argv[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
