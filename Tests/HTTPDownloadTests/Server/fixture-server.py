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

    def do_GET(self):
        self.close_connection = True
        path = self.path
        port = self.server.server_address[1]
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
