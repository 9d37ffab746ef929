#!/usr/bin/env python3
"""The HTTP server HTTPDownloadTests fetch from: on 127.0.0.1, on a port the
system picks, printed as the first line of standard output. It runs until
killed, or for at most 10 minutes.

Paths:
  /calendar.ics         calendar.ics beside this script, with an ETag and a
                        Last-Modified; 304 to a matching If-None-Match, or
                        (without If-None-Match) a matching If-Modified-Since
  /headers              the request's headers as the body, one a line
  /redirect             302 to /calendar.ics
  /chain/N              302 to /chain/N-1; /chain/0 is /calendar.ics
  /to-ftp, /to-file     302 to an ftp:// and a file:// address
  /to-other-host        302 to /headers on localhost (this is 127.0.0.1)
  /endless              a chunked body that does not end (stops at 1 GB)
  /declared-large       Content-Length of 1 GB, then a few bytes
  /slow                 the head, then no byte for 60 s
  /gone                 410
  anything else         404

Any method (GET, PUT, DELETE, PROPFIND, REPORT, MKCALENDAR, OPTIONS):
  /echo                 200: the method on the first line, the headers one a
                        line, an empty line, the body; with an ETag, a DAV
                        header, Retry-After and a Location
  /status/N             status N, with Retry-After: 30 on a 503
  /redirect-echo        307 to /echo
  /echo-elsewhere       307 to /echo on localhost (this is 127.0.0.1)
  /to-plain-remote      302 to http://calendar.example/ (never connected to)
  /basic                200 with Basic ann:secret, else 401 asking for Basic
  /digest               401 asking for Digest only
  /large-error          500 with a 1 MB body
"""
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "calendar.ics"), "rb") as f:
    CALENDAR = f.read()
ETAG = '"fixture-v1"'
LAST_MODIFIED = "Wed, 02 Dec 2026 08:00:00 GMT"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def send_body(self, status, body, content_type="text/plain", extra=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def redirect(self, location):
        self.send_body(302, b"moved\n", extra=[("Location", location)])

    def handle_any(self):
        self.close_connection = True
        path = self.path
        port = self.server.server_address[1]
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if path == "/echo":
            text = self.command + "\n" + "".join(f"{name}: {value}\n" for name, value in self.headers.items()) + "\n"
            self.send_body(200, text.encode() + body, extra=[("ETag", '"echo-1"'), ("DAV", "1, 3"), ("DAV", "calendar-access"),
                                                            ("Retry-After", "120"), ("Location", "/echo/made")])
        elif path.startswith("/status/"):
            status = int(path[len("/status/"):])
            self.send_body(status, b"status %d\n" % status, extra=[("Retry-After", "30")] if status == 503 else [])
        elif path == "/redirect-echo":
            self.send_body(307, b"moved\n", extra=[("Location", "/echo")])
        elif path == "/echo-elsewhere":
            self.send_body(307, b"moved\n", extra=[("Location", f"http://localhost:{port}/echo")])
        elif path == "/to-plain-remote":
            self.redirect("http://calendar.example/")
        elif path == "/basic":
            if self.headers.get("Authorization") == "Basic YW5uOnNlY3JldA==":
                self.send_body(200, b"welcome\n")
            else:
                self.send_body(401, b"who are you?\n", extra=[("WWW-Authenticate", 'Basic realm="fixture"')])
        elif path == "/digest":
            self.send_body(401, b"who are you?\n", extra=[("WWW-Authenticate", 'Digest realm="fixture", nonce="abc", qop="auth"')])
        elif path == "/large-error":
            self.send_body(500, b"E" * (1 << 20))
        elif self.command == "GET":
            self.do_fixture_get(path, port)
        else:
            self.send_body(405, b"not allowed\n")

    do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_MKCALENDAR = do_OPTIONS = handle_any

    def do_fixture_get(self, path, port):
        try:
            if path == "/calendar.ics":
                match = self.headers.get("If-None-Match")
                since = self.headers.get("If-Modified-Since")
                validators = [("ETag", ETAG), ("Last-Modified", LAST_MODIFIED)]
                if (match is not None and ETAG in [t.strip() for t in match.split(",")]) or (match is None and since == LAST_MODIFIED):
                    self.send_response(304)
                    for name, value in validators:
                        self.send_header(name, value)
                    self.send_header("Connection", "close")
                    self.end_headers()
                else:
                    self.send_body(200, CALENDAR, "text/calendar; charset=utf-8", validators)
            elif path == "/headers":
                text = "".join(f"{name}: {value}\n" for name, value in self.headers.items())
                self.send_body(200, text.encode())
            elif path == "/redirect":
                self.redirect("/calendar.ics")
            elif path.startswith("/chain/"):
                n = int(path[len("/chain/"):])
                self.redirect("/calendar.ics" if n <= 0 else f"/chain/{n - 1}")
            elif path == "/to-ftp":
                self.redirect(f"ftp://127.0.0.1:{port}/calendar.ics")
            elif path == "/to-file":
                self.redirect("file:///etc/passwd")
            elif path == "/to-other-host":
                self.redirect(f"http://localhost:{port}/headers")
            elif path == "/endless":
                self.send_response(200)
                self.send_header("Content-Type", "text/calendar")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                chunk = b"X" * 65536
                for _ in range(16384):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            elif path == "/declared-large":
                self.send_response(200)
                self.send_header("Content-Type", "text/calendar")
                self.send_header("Content-Length", str(1 << 30))
                self.end_headers()
                self.wfile.write(b"BEGIN:VCALENDAR\r\n")
            elif path == "/slow":
                self.send_response(200)
                self.send_header("Content-Type", "text/calendar")
                self.send_header("Content-Length", "100")
                self.end_headers()
                self.wfile.flush()
                time.sleep(60)
            elif path == "/gone":
                self.send_body(410, b"gone\n")
            else:
                self.send_body(404, b"not found\n")
        except (BrokenPipeError, ConnectionResetError):
            pass


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    # A test run that dies without killing it leaves no server for long.
    threading.Timer(600, lambda: os._exit(0)).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
