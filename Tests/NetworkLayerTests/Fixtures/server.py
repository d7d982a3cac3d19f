#!/usr/bin/env python3
"""A small HTTP/1.1 keep-alive server on 127.0.0.1 for NetworkLayer's integration tests.

It prints its port on the first line of stdout, then serves until its stdin closes (so it never outlives
the test process that started it). Nagle's algorithm is disabled on every connection: with it, keep-alive
requests stall on delayed ACKs.

Routes:
  GET  /json                      {"title": "Wonka", "year": 2023}
  GET|POST /echo                  the method, path, decoded query, raw query, headers and body
  GET  /status/<code>             that status; 204 with no body, others with {"errorType","message"}
  GET  /flaky?id=&failures=&retryAfter=   503 (with Retry-After) for the first `failures` calls per id, then 200
  GET  /slow?ms=                  answers after `ms` milliseconds
  GET  /hang                      never answers (until the client goes away, at most 60 s)
  GET  /large?bytes=              a body of that many bytes
  GET  /redirect                  302 to /json
  GET  /redirect-to?url=          302 to that URL (another origin, in the redirect tests)
  GET  /hits?path=                how many requests a path has received
"""
import json
import socket
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

hits = {}
flaky_calls = {}
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

    def do_POST(self):
        self.route()

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
        path = url.path
        if path == "/json":
            self.send_json(200, {"title": "Wonka", "year": 2023})
        elif path == "/echo":
            self.send_json(200, {
                "method": self.command,
                "path": path,
                "query": query,
                "rawQuery": url.query,
                "headers": {name.lower(): value for name, value in self.headers.items()},
                "body": body.decode("utf-8", "replace"),
            })
        elif path.startswith("/status/"):
            code = int(path.rsplit("/", 1)[1])
            if code == 204:
                self.send_body(204, b"")
            else:
                self.send_json(code, {"errorType": "NotFound", "message": "no such movie"})
        elif path == "/flaky":
            key = query.get("id", "")
            with lock:
                flaky_calls[key] = flaky_calls.get(key, 0) + 1
                count = flaky_calls[key]
            if count <= int(query.get("failures", "1")):
                self.send_json(503, {"errorType": "Unavailable", "message": "try later"},
                               headers={"Retry-After": query.get("retryAfter", "1")})
            else:
                self.send_json(200, {"attempts": count})
        elif path == "/slow":
            milliseconds = int(query.get("ms", "1000"))
            time.sleep(milliseconds / 1000)
            self.send_json(200, {"slept": milliseconds})
        elif path == "/hang":
            self.connection.settimeout(60)
            try:
                self.connection.recv(1)
            except OSError:
                pass
            self.close_connection = True
        elif path == "/large":
            self.send_body(200, b"x" * int(query.get("bytes", "0")), content_type="application/octet-stream")
        elif path == "/redirect":
            self.send_body(302, b"", headers={"Location": "/json"})
        elif path == "/redirect-to":
            self.send_body(302, b"", headers={"Location": query.get("url", "/json")})
        elif path == "/hits":
            with lock:
                count = hits.get(query.get("path", ""), 0)
            self.send_json(200, {"hits": count})
        else:
            self.send_json(404, {"errorType": "NotFound", "message": "unknown route " + path})


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128


def main():
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()  # returns when the parent closes our stdin or exits
    server.shutdown()


if __name__ == "__main__":
    main()
