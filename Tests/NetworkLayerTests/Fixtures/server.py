#!/usr/bin/env python3
"""A small HTTP/1.1 keep-alive server on 127.0.0.1 for NetworkLayer's integration tests.

It prints its port on the first line of stdout, then serves until its stdin closes (so it never outlives
the test process that started it). Nagle's algorithm is disabled on every connection: with it, keep-alive
requests stall on delayed ACKs.

Routes: one method per route on `Handler` (`route_<name>`), each with a docstring saying what it answers
and which query items it reads, dispatched through the `ROUTES` table; `python3 server.py --routes`
prints them.
"""
import base64
import gzip
import inspect
import json
import socket
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

hits = {}
flaky_calls = {}
ranged_calls = {}
ranged_log = {}
closed = {}
cached_state = {}  # id -> {"version": n, "status": code}
cached_log = {}  # id -> [the conditional headers of each request]
gates = {}  # name -> threading.Event, opened by /open?gate=


def gate(name):
    with lock:
        return gates.setdefault(name, threading.Event())
lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.route()

    def do_HEAD(self):
        if urllib.parse.urlsplit(self.path).path == "/declared":
            self.route()
        else:
            self.send_body(405, b"")

    # PUT, PATCH and DELETE answer as GET does (the HTTP cache's invalidation tests send them to /cached).
    def do_PUT(self):
        self.route()

    def do_PATCH(self):
        self.route()

    def do_DELETE(self):
        self.route()

    def do_POST(self):
        if urllib.parse.urlsplit(self.path).path == "/upload":
            self.upload()
        else:
            self.route()

    def upload(self):
        """{"bytes": n, "sum": the sum of the body's bytes mod 2^32}"""
        length = int(self.headers.get("Content-Length") or 0)
        remaining, total, checksum = length, 0, 0
        while remaining > 0:
            piece = self.rfile.read(min(remaining, 1 << 16))
            if not piece:
                break
            remaining -= len(piece)
            total += len(piece)
            checksum = (checksum + sum(piece)) % (1 << 32)
        self.send_json(200, {"bytes": total, "sum": checksum})

    def start_chunked(self, content_type):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()

    def chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))

    def end_chunks(self):
        self.wfile.write(b"0\r\n\r\n")

    def wait_until_client_leaves(self, key):
        with lock:
            closed[key] = 0
        self.connection.settimeout(60)
        try:
            while self.connection.recv(1):
                pass
        except OSError:
            pass
        with lock:
            closed[key] = 1
        self.close_connection = True

    def endless(self, key, pace):
        self.start_chunked("application/octet-stream")
        piece = b"x" * 65536
        with lock:
            closed[key] = 0
        try:
            while True:
                self.chunk(piece)
                time.sleep(pace)
        except OSError:
            pass
        with lock:
            closed[key] = 1
        self.close_connection = True

    def send_body(self, status, body, content_type="application/json; charset=utf-8", headers=None):
        self.send_response(status)
        if status != 204:
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if status != 204:
            self.wfile.write(body)

    def cached(self, query):
        key = query.get("id", "")
        with lock:
            state = cached_state.setdefault(key, {"version": 1, "status": 200})
            version, status = state["version"], state["status"]
            cached_log.setdefault(key, []).append({
                "ifNoneMatch": self.headers.get("If-None-Match") or "",
                "ifModifiedSince": self.headers.get("If-Modified-Since") or "",
                "authorization": self.headers.get("Authorization") or "",
                "cacheControl": self.headers.get("Cache-Control") or "",
            })
        if status != 200:
            self.send_json(status, {"errorType": "Unavailable", "message": "down"})
            return
        headers = {}
        for parameter, name in [("cc", "Cache-Control"), ("lastModified", "Last-Modified"), ("vary", "Vary"),
                                ("age", "Age"), ("expires", "Expires")]:
            if parameter in query:
                headers[name] = query[parameter]
        tag = query.get("etag")
        if tag == "version":
            tag = '"v%d"' % version
        if tag:
            headers["ETag"] = tag
        sent_tag = self.headers.get("If-None-Match")
        sent_date = self.headers.get("If-Modified-Since")
        matches = (sent_tag == tag) if tag else (sent_date is not None and sent_date == query.get("lastModified"))
        if query.get("always304") == "1" or matches:
            headers.update(json.loads(query.get("notModifiedHeaders", "{}")))
            self.send_response_only(304)
            self.send_header("Date", query.get("date") or self.date_time_string())
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            return
        body = json.dumps({"id": key, "version": version,
                           "lang": self.headers.get("Accept-Language") or ""}).encode()
        self.send_response_only(200)
        self.send_header("Date", query.get("date") or self.date_time_string())
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def send_json(self, status, value, headers=None):
        self.send_body(status, json.dumps(value, ensure_ascii=False).encode("utf-8"), headers=headers)

    def route(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True))
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        with lock:
            hits[url.path] = hits.get(url.path, 0) + 1
        try:
            self.respond(url, query, body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def respond(self, url, query, body):
        route = ROUTES.get(url.path) or next(
            (route for prefix, route in PREFIX_ROUTES.items() if url.path.startswith(prefix)), None)
        if route is None:
            self.send_json(404, {"errorType": "NotFound", "message": "unknown route " + url.path})
        else:
            route(self, url, query, body)

    # The routes: each one's docstring says what it answers and which query items it reads
    # (`python3 server.py --routes` prints them all).

    def route_json(self, url, query, body):
        """GET /json: {"title": "Wonka", "year": 2023}"""
        self.send_json(200, {"title": "Wonka", "year": 2023})

    def route_echo(self, url, query, body):
        """GET|POST /echo: the method, path, decoded query, raw query, headers and body"""
        path = url.path
        self.send_json(200, {
            "method": self.command,
            "path": path,
            "query": query,
            "rawQuery": url.query,
            "headers": {name.lower(): value for name, value in self.headers.items()},
            "body": body.decode("utf-8", "replace"),
        })

    def route_status(self, url, query, body):
        """GET /status/<code>: that status; 204 with no body, others with {"errorType","message"}"""
        path = url.path
        code = int(path.rsplit("/", 1)[1])
        if code == 204:
            self.send_body(204, b"")
        else:
            self.send_json(code, {"errorType": "NotFound", "message": "no such movie"})

    def route_flaky(self, url, query, body):
        """GET /flaky?id=&failures=&retryAfter=: 503 (with Retry-After) for the first `failures` calls
        per id, then 200"""
        key = query.get("id", "")
        with lock:
            flaky_calls[key] = flaky_calls.get(key, 0) + 1
            count = flaky_calls[key]
        if count <= int(query.get("failures", "1")):
            self.send_json(503, {"errorType": "Unavailable", "message": "try later"},
                           headers={"Retry-After": query.get("retryAfter", "1")})
        else:
            self.send_json(200, {"attempts": count})

    def route_slow(self, url, query, body):
        """GET /slow?ms=: answers after `ms` milliseconds"""
        milliseconds = int(query.get("ms", "1000"))
        time.sleep(milliseconds / 1000)
        self.send_json(200, {"slept": milliseconds})

    def route_hang(self, url, query, body):
        """GET /hang: never answers (until the client goes away, at most 60 s)"""
        self.connection.settimeout(60)
        try:
            self.connection.recv(1)
        except OSError:
            pass
        self.close_connection = True

    def route_large(self, url, query, body):
        """GET /large?bytes=: a body of that many bytes ("x"), honouring `Range` like /ranged"""
        self.ranged(query, body=lambda start, end: b"x" * (end - start), tag="large")

    def route_redirect(self, url, query, body):
        """GET /redirect: 302 to /json"""
        self.send_body(302, b"", headers={"Location": "/json"})

    def route_redirect_to(self, url, query, body):
        """GET /redirect-to?url=: 302 to that URL (another origin, in the redirect tests)"""
        self.send_body(302, b"", headers={"Location": query.get("url", "/json")})

    def route_lines(self, url, query, body):
        """GET /lines?count=&intervalMs=&id=: `count` NDJSON lines, chunked, one every `intervalMs`;
        /closed?id= says 1 once all were sent"""
        self.start_chunked("application/x-ndjson")
        for index in range(int(query.get("count", "3"))):
            self.chunk(json.dumps({"index": index}).encode() + b"\n")
            time.sleep(int(query.get("intervalMs", "0")) / 1000)
        self.end_chunks()
        with lock:
            closed[query.get("id", "")] = 1

    def route_events(self, url, query, body):
        """GET /events: a server-sent event stream (comments, multi-line data, ids), written in pieces
        that split lines and terminators"""
        self.start_chunked("text/event-stream")
        stream = (b"\xef\xbb\xbf: a comment\r\nretry: 1500\r\n\r\n"
                  b"data: first\n\n"
                  b"event: score\rid: 7\rdata: line one\rdata: line two\r\r"
                  b"data:no space\r\n\r\n"
                  b"id\nevent: empty\n\n"
                  b"data: cut off at the end")
        for start in range(0, len(stream), 5):
            self.chunk(stream[start:start + 5])
            time.sleep(0.002)
        self.end_chunks()

    def route_trickle(self, url, query, body):
        """GET /trickle?chunks=&intervalMs=&stallAfter=&id=: chunked 1 KiB pieces every `intervalMs`;
        after `stallAfter` pieces (if given) it goes quiet until the client leaves"""
        self.start_chunked("application/octet-stream")
        stall_after = int(query.get("stallAfter", "-1"))
        for index in range(int(query.get("chunks", "10"))):
            if index == stall_after:
                self.wait_until_client_leaves(query.get("id", ""))
                return
            self.chunk(b"t" * 1024)
            time.sleep(int(query.get("intervalMs", "100")) / 1000)
        self.end_chunks()
        with lock:
            closed[query.get("id", "")] = 1

    def route_endless(self, url, query, body):
        """GET /endless?id=&paceMs=: a chunked body of "x" that never ends, 64 KiB pieces `paceMs` apart
        (0 by default); /closed?id= says 1 once the client left"""
        self.endless(query.get("id", ""), int(query.get("paceMs", "0")) / 1000)

    def route_declared(self, url, query, body):
        """GET|HEAD /declared?bytes=&delayMs=&sendBytes=: a `Content-Length` of `bytes`, then (after
        `delayMs`, for a GET) "x" in 64 KiB pieces 5 ms apart, ending the connection after `sendBytes`
        if given"""
        total = int(query.get("bytes", "0"))
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(total))
        self.end_headers()
        if self.command == "HEAD":
            return
        time.sleep(int(query.get("delayMs", "0")) / 1000)
        # With sendBytes, the connection ends after that many bytes, short of what it declared.
        total = min(total, int(query.get("sendBytes", str(total))))
        while total > 0:
            piece = min(total, 65536)
            self.wfile.write(b"x" * piece)
            total -= piece
            time.sleep(0.005)
        self.close_connection = True

    def route_gzip(self, url, query, body):
        """GET /gzip?bytes=: `bytes` zero bytes, gzip-compressed (Content-Encoding: gzip)"""
        packed = gzip.compress(b"\0" * int(query.get("bytes", "0")))
        self.send_body(200, packed, content_type="application/octet-stream",
                       headers={"Content-Encoding": "gzip"})

    def route_big_error(self, url, query, body):
        """GET /big-error?status=&bytes=&challenge=: that status with `bytes` bytes of "e" (endless, 5
        ms per 64 KiB, when -1 or missing); challenge=1 adds `WWW-Authenticate: Basic`"""
        status = int(query.get("status", "503"))
        headers = {"WWW-Authenticate": 'Basic realm="fixtures"'} if query.get("challenge") == "1" else {}
        total = int(query.get("bytes", "-1"))
        if total >= 0:
            self.send_body(status, b"e" * total, content_type="text/plain", headers=headers)
            return
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Transfer-Encoding", "chunked")
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        try:
            while True:
                self.chunk(b"e" * 65536)
                time.sleep(0.005)
        except OSError:
            self.close_connection = True

    def route_auth(self, url, query, body):
        """GET|POST /auth?user=&password=: 401 with `WWW-Authenticate: Basic` unless the request carries
        those credentials, then {"user": user}"""
        expected = "Basic " + base64.b64encode(
            ("%s:%s" % (query.get("user", ""), query.get("password", ""))).encode()).decode()
        if self.headers.get("Authorization") == expected:
            self.send_json(200, {"user": query.get("user", "")})
        else:
            self.send_body(401, b"{}", headers={"WWW-Authenticate": 'Basic realm="fixtures"'})

    def route_ranged(self, url, query, body):
        """GET /ranged: `bytes` bytes (byte i is i % 251) with an ETag, honouring `Range: bytes=N-` and
        `bytes=N-M` (206; 416 past the end) unless an `If-Range` differs. Query items:
          bytes=           the body's length
          id=              counts this resource's requests (for the switches that act on the first or
                           second one) and logs their Range headers for /ranged-log
          dropAfter=       the first request's connection closes after that many bytes
          delayMs=         waits that long between the head and the body
          gate=<name>      the body waits (at most 60 s) for /open?gate=<name>
          badRange=1       the second request gets a 206 from byte 0 (labelled so), not the range asked for
          noRanges=1       every answer is a 200 of the whole body
          noValidator=1    no ETag is sent
          unknownTotal=1   a 206's Content-Range says `/*`
          changeAfter=     after that many requests the file changes (another ETag, byte i is
                           (i + 1) % 251)
          ignoreIfRange=1  a changed file still answers a Range with a 206 of the new version
          resume416=same|changed  a resume (a later request with a Range) is refused with 416, naming the
                           ETag asked for (same) or another one (changed)
          overrunAfterAll=1  the first answer sends every byte, then 100 more than its Content-Range
                           says, chunked and ended properly
          stallAfterAll=1  the first answer sends every byte, chunked, then no last chunk for `stallMs`
                           (3,000 by default) before the connection closes"""
        self.ranged(query)

    def route_open(self, url, query, body):
        """GET /open?gate=: opens that gate of /ranged"""
        gate(query.get("gate", "")).set()
        self.send_json(200, {"opened": query.get("gate", "")})

    def route_ranged_log(self, url, query, body):
        """GET /ranged-log?id=: {"ranges": the Range header of each /ranged request with that id, ""
        when it had none}"""
        with lock:
            ranges = list(ranged_log.get(query.get("id", ""), []))
        self.send_json(200, {"ranges": ranges})

    def route_closed(self, url, query, body):
        """GET /closed?id=: whether the /trickle connection with that id was closed by the client (1) or
        is still open (0); -1 before it starts"""
        with lock:
            value = closed.get(query.get("id", ""), -1)
        self.send_json(200, {"closed": value})

    def route_cached(self, url, query, body):
        """GET|POST|PUT|PATCH|DELETE /cached?id=&cc=&etag=&lastModified=&vary=&date=&age=&expires=
        &always304=&notModifiedHeaders=: a resource for the HTTP cache tests: {"id", "version", "lang"}
        with those headers (etag=version sends "v<version>"); a matching If-None-Match (or, without an
        ETag, If-Modified-Since) gets a 304 with the same headers plus the JSON object
        notModifiedHeaders; always304=1 answers 304 whatever was sent; the Date is `date` when given"""
        self.cached(query)

    def route_cached_set(self, url, query, body):
        """GET /cached-set?id=&version=&status=: changes that resource's version, or makes it answer
        `status`"""
        with lock:
            state = cached_state.setdefault(query.get("id", ""), {"version": 1, "status": 200})
            state["version"] = int(query.get("version", state["version"]))
            state["status"] = int(query.get("status", "200"))
        self.send_json(200, state)

    def route_cached_log(self, url, query, body):
        """GET /cached-log?id=: {"requests": [{"ifNoneMatch", "ifModifiedSince", "authorization",
        "cacheControl"}]} of each /cached request with that id"""
        with lock:
            requests = list(cached_log.get(query.get("id", ""), []))
        self.send_json(200, {"requests": requests})

    def route_hits(self, url, query, body):
        """GET /hits?path=: how many requests a path has received"""
        with lock:
            count = hits.get(query.get("path", ""), 0)
        self.send_json(200, {"hits": count})


# Every route, by path: the table `respond` dispatches on.
ROUTES = {
    "/json": Handler.route_json,
    "/echo": Handler.route_echo,
    "/flaky": Handler.route_flaky,
    "/slow": Handler.route_slow,
    "/hang": Handler.route_hang,
    "/large": Handler.route_large,
    "/redirect": Handler.route_redirect,
    "/redirect-to": Handler.route_redirect_to,
    "/lines": Handler.route_lines,
    "/events": Handler.route_events,
    "/trickle": Handler.route_trickle,
    "/endless": Handler.route_endless,
    "/declared": Handler.route_declared,
    "/gzip": Handler.route_gzip,
    "/big-error": Handler.route_big_error,
    "/auth": Handler.route_auth,
    "/ranged": Handler.route_ranged,
    "/open": Handler.route_open,
    "/ranged-log": Handler.route_ranged_log,
    "/closed": Handler.route_closed,
    "/cached": Handler.route_cached,
    "/cached-set": Handler.route_cached_set,
    "/cached-log": Handler.route_cached_log,
    "/hits": Handler.route_hits,
}
PREFIX_ROUTES = {
    "/status/": Handler.route_status,
}


PATTERN = bytes(range(251)) * 263  # longer than one 64 KiB piece plus an offset


def ranged_body(start, end):
    offset = start % 251
    return PATTERN[offset:offset + end - start]


def requested_range(header, total):
    """(first, last) asked for by `Range: bytes=first-[last]`, clamped to the body; None for no range or
    one this server does not read; "unsatisfiable" when it starts past the end."""
    if not header or not header.startswith("bytes=") or "," in header:
        return None
    first_text, _, last_text = header[len("bytes="):].partition("-")
    if not first_text.isdigit() or (last_text and not last_text.isdigit()):
        return None
    first = int(first_text)
    last = min(int(last_text), total - 1) if last_text else total - 1
    if first >= total:
        return "unsatisfiable"
    if last < first:
        return None
    return first, last


def handle_ranged(handler, query, body=ranged_body, tag="v1"):
    total = int(query.get("bytes", "0"))
    key = query.get("id", "")
    range_header = handler.headers.get("Range")
    with lock:
        ranged_calls[key] = ranged_calls.get(key, 0) + 1
        call = ranged_calls[key]
        ranged_log.setdefault(key, []).append(range_header or "")
    changed = call > int(query.get("changeAfter", "-1")) >= 0
    if changed:
        # A new version of the file: another ETag, and every byte one more (mod 251).
        tag, body = tag + "-changed", (lambda start, end, body=body: body(start + 1, end + 1))
    etag = '"%s-%d"' % (tag, total)
    resume416 = query.get("resume416")
    if resume416 and call > 1 and range_header:
        # A resume refused as past the end, at the byte it starts from: with the ETag asked for
        # ("same"), or another one ("changed", a server that ignores If-Range).
        first_text = range_header[len("bytes="):].partition("-")[0]
        shown = etag if resume416 == "same" else '"%s-other"' % tag
        handler.send_body(416, b"", content_type="application/octet-stream", headers={
            "Accept-Ranges": "bytes", "ETag": shown, "Content-Range": "bytes */%s" % first_text})
        return
    headers = {"Accept-Ranges": "bytes"}
    if query.get("noValidator") != "1":
        headers["ETag"] = etag
    if_range = handler.headers.get("If-Range")
    asked = None
    if query.get("noRanges") != "1" and (if_range is None or if_range == headers.get("ETag")):
        asked = requested_range(range_header, total)
    if asked == "unsatisfiable":
        headers["Content-Range"] = "bytes */%d" % total
        handler.send_body(416, b"", content_type="application/octet-stream", headers=headers)
        return
    first, last = asked if asked else (0, total - 1)
    if asked and first > 0 and query.get("badRange") == "1" and call == 2:
        first, last = 0, total - 1  # the wrong bytes: from the start, labelled as such
    if query.get("ignoreIfRange") == "1" and changed and range_header:
        # An object store that honours Range but ignores If-Range: the new version's bytes, as asked.
        ignored = requested_range(range_header, total)
        if ignored not in (None, "unsatisfiable"):
            asked = ignored
            first, last = ignored
    handler.send_response(206 if asked else 200)
    if asked:
        shown_total = "*" if query.get("unknownTotal") == "1" else str(total)
        headers["Content-Range"] = "bytes %d-%d/%s" % (first, last, shown_total)
    handler.send_header("Content-Type", "application/octet-stream")
    if query.get("overrunAfterAll") == "1" and call == 1:
        # Every byte of the answer, then 100 more than its Content-Range says, chunked and ended properly.
        handler.send_header("Transfer-Encoding", "chunked")
        for name, value in headers.items():
            handler.send_header(name, value)
        handler.end_headers()
        chunk = body(first, last + 1) + b"x" * 100
        handler.wfile.write(b"%x\r\n" % len(chunk) + chunk + b"\r\n0\r\n\r\n")
        return
    if query.get("stallAfterAll") == "1" and call == 1:
        # Every byte of the answer, chunked, then no last chunk: the transfer stalls with the body whole.
        handler.send_header("Transfer-Encoding", "chunked")
        for name, value in headers.items():
            handler.send_header(name, value)
        handler.end_headers()
        position, end_of_answer = first, last + 1
        while position < end_of_answer:
            end = min(end_of_answer, position + 65536)
            chunk = body(position, end)
            handler.wfile.write(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
            position = end
        handler.wfile.flush()
        time.sleep(int(query.get("stallMs", "3000")) / 1000)
        handler.close_connection = True
        return
    handler.send_header("Content-Length", str(last + 1 - first))
    for name, value in headers.items():
        handler.send_header(name, value)
    handler.end_headers()
    time.sleep(int(query.get("delayMs", "0")) / 1000)
    if "gate" in query:
        gate(query["gate"]).wait(60)
    drop_after = int(query.get("dropAfter", "-1")) if call == 1 else -1
    position, end_of_answer = first, last + 1
    while position < end_of_answer:
        end = min(end_of_answer, position + 65536)
        if drop_after >= 0 and end > drop_after:
            handler.wfile.write(body(position, drop_after))
            handler.connection.shutdown(socket.SHUT_RDWR)
            handler.close_connection = True
            return
        handler.wfile.write(body(position, end))
        position = end


Handler.ranged = handle_ranged


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128

    def handle_error(self, request, client_address):
        # A client that leaves mid-answer (a cancelled request, a body past its limit) is expected here.
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


def print_routes():
    """The routes and what each answers, from their docstrings: POST /upload, then the table."""
    print("POST /upload: " + Handler.upload.__doc__.strip())
    for route in list(ROUTES.values()) + list(PREFIX_ROUTES.values()):
        print(inspect.cleandoc(route.__doc__) + "\n")


def main():
    if "--routes" in sys.argv:
        print_routes()
        return
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()  # returns when the parent closes our stdin or exits
    server.shutdown()


if __name__ == "__main__":
    main()
