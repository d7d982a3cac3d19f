#!/usr/bin/env python3
"""Serves the box office demo data as live KOBIS and Kakao APIs on 127.0.0.1, for end-to-end tests.

usage: demo_server.py <DemoData folder>
Prints its port, then serves until stdin closes. Routes (mount points for KOBIS_BASE_URL / KAKAO_BASE_URL):
  /kobis/boxoffice/searchDailyBoxOfficeList.json?key=&targetDt=   (key "invalid" → KOBIS fault 320010, HTTP 200)
  /kobis/movie/searchMovieInfo.json?key=&movieCd=
  /kakao/v2/search/image?query=&size=    (needs "Authorization: KakaoAK <key>", else 401 like Kakao)
  /posters/<code>.png                    (image_url in search results is rewritten to point here)
  /hits?path=                            how many requests a path has received
"""
import json
import os
import socket
import struct
import sys
import threading
import urllib.parse
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DEMO = sys.argv[1]
hits = {}
lock = threading.Lock()


def load(path):
    try:
        with open(os.path.join(DEMO, path), "rb") as file:
            return file.read()
    except OSError:
        return None


def titles():
    result = {}
    for name in os.listdir(os.path.join(DEMO, "kobis/movie")):
        info = json.loads(load("kobis/movie/" + name))["movieInfoResult"]["movieInfo"]
        result[info["movieNm"].strip()] = info["movieCd"]
    return result


def png(seed):
    width, height = 8, 12
    color = bytes([(hash(seed) >> shift) & 0xFF for shift in (0, 8, 16)])
    raw = b"".join(b"\x00" + color * width for _ in range(height))
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, *args):
        pass

    def send(self, status, body, content_type="application/json;charset=UTF-8"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        with lock:
            hits[url.path] = hits.get(url.path, 0) + 1
        base = f"http://127.0.0.1:{self.server.server_address[1]}"
        fault = '{"faultInfo":{"message":"유효하지않은 키값입니다.","errorCode":"320010"}}'.encode()
        if url.path.startswith("/kobis/") and query.get("key") == "invalid":
            self.send(200, fault)
        elif url.path == "/kobis/boxoffice/searchDailyBoxOfficeList.json":
            date = query.get("targetDt", "")
            empty = json.dumps({"boxOfficeResult": {"boxofficeType": "일별 박스오피스", "showRange": f"{date}~{date}",
                                                    "dailyBoxOfficeList": []}}).encode()
            self.send(200, load(f"kobis/daily/{date}.json") or empty)
        elif url.path == "/kobis/movie/searchMovieInfo.json":
            body = load(f"kobis/movie/{query.get('movieCd', '')}.json")
            self.send(200, body or '{"faultInfo":{"message":"no such movie","errorCode":"320011"}}'.encode())
        elif url.path == "/kakao/v2/search/image":
            if not self.headers.get("Authorization", "").startswith("KakaoAK "):
                self.send(401, b'{"errorType":"AccessDeniedError","message":"wrong appKey(null) format"}')
                return
            title = query.get("query", "").removesuffix(" 영화 포스터")
            code = titles().get(title)
            body = load(f"kakao/image/{code}.json") if code else None
            text = (body or b'{"documents":[],"meta":{"is_end":true,"pageable_count":0,"total_count":0}}').decode()
            self.send(200, text.replace("https://posters.demo.boxoffice.invalid", base + "/posters").encode())
        elif url.path.startswith("/posters/"):
            self.send(200, png(url.path), "image/png")
        elif url.path == "/hits":
            with lock:
                self.send(200, json.dumps({"hits": hits.get(query.get("path", ""), 0)}).encode())
        else:
            self.send(404, b'{"errorType":"NotFound","message":"no route"}')


class Server(ThreadingHTTPServer):
    daemon_threads = True


def main():
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
