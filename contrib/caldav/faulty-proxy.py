#!/usr/bin/env python3
"""A proxy on 127.0.0.1 in front of a CalDAV server that fails where told:
what the sync tests use to play a server that is overloaded or that dies in
the middle of a sync.

  faulty-proxy.py UPSTREAM PORT RULE...

UPSTREAM is the server's base URL (http://127.0.0.1:PORT); the proxy
listens on PORT and prints "ready" once it does. Requests are numbered from
1 in the order they arrive; each RULE is N:ACTION for request N:

  N:503:SECONDS   answer 503 Service Unavailable with Retry-After: SECONDS
  N:404           answer 404 Not Found, as a server that says so of a
                  resource deleted there rather than 412
  N:drop          close the connection without an answer, as a server
                  killed in the middle of a request does
  0:nosync        (for every request) answer a sync-collection REPORT with
                  501 Not Implemented, as a server without RFC 6578 does
  N:control       pass it on, but put a raw control character (BEL) after
                  each SUMMARY: of the answer, as a careless server copies
                  one into XML, which cannot hold it
  0:norscale      (for every request) answer a PUT whose RRULE has RSCALE
                  with 403 Forbidden and CalDAV's valid-calendar-data
                  precondition (RFC 4791 5.3.2.1), as a server whose parser
                  lacks RFC 7529 may
  N:phantom       pass it on, but add to the answer (a multistatus) a
                  member phantom.ics of the request's collection, with an
                  ETag and no calendar-data: a resource listed that is gone
                  by the time it is fetched

Every other request is passed on to UPSTREAM as it came (method, path,
headers, body; without Accept-Encoding, so that answers come uncompressed
and `control` finds their text) and its answer passed back. Standard
library only.
"""
import http.client
import http.server
import re
import sys
import threading
import urllib.parse


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 64
    upstream = urllib.parse.urlsplit(argv[1])
    port = int(argv[2])
    rules = {}
    for rule in argv[3:]:
        number, action = rule.split(":", 1)
        rules[int(number)] = action
    count = [0]
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def handle_one(self):
            with lock:
                count[0] += 1
                number = count[0]
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            action = rules.get(number)
            if rules.get(0) == "nosync" and self.command == "REPORT" and b"sync-collection" in body:
                self.send_response(501)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if rules.get(0) == "norscale" and self.command == "PUT" and re.search(rb"(?m)^RRULE[;:][^\r\n]*RSCALE", body):
                error = (b'<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="DAV:" '
                         b'xmlns:C="urn:ietf:params:xml:ns:caldav"><C:valid-calendar-data/></D:error>')
                self.send_response(403)
                self.send_header("Content-Type", "application/xml; charset=utf-8")
                self.send_header("Content-Length", str(len(error)))
                self.end_headers()
                self.wfile.write(error)
                return
            if action == "drop":
                self.close_connection = True
                self.connection.shutdown(2)
                return
            if action == "404":
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if action and action.startswith("503:"):
                self.send_response(503)
                self.send_header("Retry-After", action[4:])
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            connection = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=60)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection", "content-length", "accept-encoding")}
            connection.request(self.command, self.path, body=body, headers=headers)
            answer = connection.getresponse()
            data = answer.read()
            if action == "control":
                data = data.replace(b"SUMMARY:", b"SUMMARY:\x07")
            if action == "phantom":
                member = (self.path.rstrip("/") + "/phantom.ics").encode()
                phantom = (b"<response xmlns=\"DAV:\"><href>" + member + b"</href><propstat><prop><getetag>\"phantom\"</getetag></prop>"
                           b"<status>HTTP/1.1 200 OK</status></propstat></response>")
                closing = data.rfind(b"</")
                data = data[:closing] + phantom + data[closing:]
            self.send_response(answer.status, answer.reason)
            for name, value in answer.getheaders():
                if name.lower() not in ("content-length", "transfer-encoding", "connection", "server", "date"):
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            connection.close()

        do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_OPTIONS = do_MKCALENDAR = handle_one

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print("ready", flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
