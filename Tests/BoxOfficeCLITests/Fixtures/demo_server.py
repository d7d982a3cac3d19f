#!/usr/bin/env python3
"""Serves the box office demo data as live KOBIS and Kakao APIs on 127.0.0.1, for end-to-end tests.

usage: demo_server.py <DemoData folder>
Prints its port, then serves until stdin closes. Routes (mount points for KOBIS_BASE_URL / KAKAO_BASE_URL):
  /kobis/boxoffice/searchDailyBoxOfficeList.json?key=&targetDt=   (key "invalid" → KOBIS fault 320010, HTTP 200)
  /kobis/movie/searchMovieInfo.json?key=&movieCd=
  /kobis/movie/searchMovieList.json?key=&movieNm=&curPage=&itemPerPage=   (Korean or English title contains,
                                          ignoring case; answered after SEARCH_DELAY seconds, 0 by default)
  /kakao/v2/search/image?query=&size=    (needs "Authorization: KakaoAK <key>", else 401 like Kakao)
  /posters/<code>.png                    (image_url in search results is rewritten to point here, under
                                          the host name "localhost": another host than the APIs')
  /hits?path=                            how many requests a path has received
  /requests                              every request so far: host, path with query, and headers

A hostile server, chosen by the key's last part (for the hardening tests; the key itself is echoed back
where a careless server would echo it):
  KOBIS key ending "-500"      HTTP 500 with an HTML page naming the request URL and the key
  KOBIS key ending "-html"     HTTP 200 with an HTML page instead of JSON
  KOBIS key ending "-404"      HTTP 404 with a body shaped like Kakao's errors
  KOBIS key ending "-hang"     no answer for 5 seconds (the client's timeout fires first)
  KOBIS key ending "-escape"   titles carrying HTML markup, terminal escape sequences, C1 controls and the key
  KOBIS key ending "-echo"     titles with the key where a table column ends (cut before scrubbed, it shows)
  Kakao key ending "-401"      HTTP 401 whose message quotes the key
  Kakao key ending "-notimage" posters that are HTML pages (/html-page/<code>.png)
  Kakao key ending "-ftp"      image URLs with the ftp scheme
  Kakao key ending "-keyurl"   image URLs carrying the Kakao key in their query
  Kakao key ending "-userinfo" image URLs carrying the Kakao key as a password (user:key@host)
  Kakao key ending "-tagged"   posters whose ETag is the Kakao key the search was sent with (/etag-echo/<code>.png)
  Kakao key ending "-stuffed"  posters whose bytes carry that key in a PNG text chunk (/with-text/<code>.png)
  Kakao key ending "-huge"          posters declaring and sending 1 GiB (/flood-1g/<code>.png)
  Kakao key ending "-endless"       posters that never end, without a length (/flood-nolength/<code>.png)
  Kakao key ending "-gzipbomb"      posters of 400 MB gzip-compressed to 400 KB (/flood-gz/<code>.png)
  (The mode words share no six letters with what the app prints, which redacts any part of a key.)
  KOBIS key ending "-flood"    a chart of 2,000 rows, and 5,000 films (of 100,000) for every search
  KOBIS key ending "-huge"     100,000 films (12 MB) for every search
"""
import json
import os
import socket
import struct
import sys
import threading
import time
import urllib.parse
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DEMO = sys.argv[1]
hits = {}
requests = []
# The Kakao key the last image search was sent with: what a careless image host on the same server echoes.
last_kakao_key = [""]
lock = threading.Lock()
ESCAPES = "\x1b[2J\x1b]0;PWNED\x07\u009b31m\u202e"
MARKUP = "<script>alert(1)</script>\"><img src=x onerror=alert(2)>"


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


def search(title, limit):
    wanted = title.strip().casefold()
    matches = []
    for name in sorted(os.listdir(os.path.join(DEMO, "kobis/movie"))):
        info = json.loads(load("kobis/movie/" + name))["movieInfoResult"]["movieInfo"]
        if wanted and (wanted in info["movieNm"].casefold() or wanted in info["movieNmEn"].casefold()):
            matches.append({"movieCd": info["movieCd"], "movieNm": info["movieNm"], "movieNmEn": info["movieNmEn"],
                            "prdtYear": info["prdtYear"], "openDt": info["openDt"], "typeNm": info["typeNm"],
                            "prdtStatNm": info["prdtStatNm"], "nationAlt": ",".join(n["nationNm"] for n in info["nations"]),
                            "genreAlt": ",".join(g["genreNm"] for g in info["genres"]), "repNationNm": "",
                            "repGenreNm": "", "directors": [{"peopleNm": d["peopleNm"]} for d in info["directors"]],
                            "companys": []})
    return {"movieListResult": {"totCnt": len(matches), "source": "영화진흥위원회", "movieList": matches[:limit]}}


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

    def send(self, status, body, content_type="application/json;charset=UTF-8", headers=None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        with lock:
            hits[url.path] = hits.get(url.path, 0) + 1
            if url.path != "/requests":
                requests.append({"host": self.headers.get("Host", ""), "path": self.path,
                                 "headers": {name.lower(): value for name, value in self.headers.items()}})
        base = f"http://localhost:{self.server.server_address[1]}"
        key = query.get("key", "")
        kakao_key = self.headers.get("Authorization", "").removeprefix("KakaoAK ")
        fault = '{"faultInfo":{"message":"유효하지않은 키값입니다.","errorCode":"320010"}}'.encode()
        if url.path.startswith("/kobis/") and key == "invalid":
            self.send(200, fault)
        elif url.path.startswith("/kobis/") and key.endswith("-500"):
            self.send(500, f"<html><body>Internal error for {self.path} (key {key})\n</body></html>".encode(),
                      "text/html")
        elif url.path.startswith("/kobis/") and key.endswith("-html"):
            self.send(200, f"<html><body>maintenance, key {key}</body></html>".encode(), "text/html")
        elif url.path.startswith("/kobis/") and key.endswith("-404"):
            self.send(404, b'{"errorType":"NotFound","message":"no route"}')
        elif url.path.startswith("/kobis/") and key.endswith("-hang"):
            time.sleep(5)
            self.send(200, b"{}")
        elif url.path == "/kobis/boxoffice/searchDailyBoxOfficeList.json" and key.endswith(("-escape", "-echo")):
            daily = json.loads(load(f"kobis/daily/{query.get('targetDt', '')}.json") or b"{}")
            for row in daily.get("boxOfficeResult", {}).get("dailyBoxOfficeList", []):
                if key.endswith("-echo"):
                    row["movieNm"] = "X" * 20 + key + " " + row["movieNm"]
                else:
                    row["movieNm"] = row["movieNm"] + MARKUP + ESCAPES + key
            self.send(200, json.dumps(daily, ensure_ascii=False).encode())
        elif url.path == "/kobis/movie/searchMovieInfo.json" and key.endswith("-escape"):
            info = json.loads(load(f"kobis/movie/{query.get('movieCd', '')}.json") or b"{}")
            movie = info.get("movieInfoResult", {}).get("movieInfo", {})
            movie["movieNm"] = movie.get("movieNm", "") + MARKUP + ESCAPES + key
            movie["directors"] = [{"peopleNm": MARKUP, "peopleNmEn": ""}]
            self.send(200, json.dumps(info, ensure_ascii=False).encode())
        elif url.path == "/kobis/boxoffice/searchDailyBoxOfficeList.json" and key.endswith("-flood"):
            daily = json.loads(load("kobis/daily/20261121.json"))
            rows = daily["boxOfficeResult"]["dailyBoxOfficeList"]
            flood = []
            for rank in range(1, 2001):
                row = dict(rows[(rank - 1) % len(rows)])
                row["rnum"] = row["rank"] = str(rank)
                flood.append(row)
            daily["boxOfficeResult"]["dailyBoxOfficeList"] = flood
            self.send(200, json.dumps(daily, ensure_ascii=False).encode())
        elif url.path == "/kobis/movie/searchMovieList.json" and key.endswith(("-flood", "-huge")):
            films = [{"movieCd": str(30000000 + n), "movieNm": f"서울 {n}", "movieNmEn": f"Seoul {n}",
                      "prdtYear": "2026", "openDt": "20261101", "genreAlt": "드라마", "directors": []}
                     for n in range(5000 if key.endswith("-flood") else 100000)]
            result = {"movieListResult": {"totCnt": 100000, "source": "영화진흥위원회", "movieList": films}}
            self.send(200, json.dumps(result, ensure_ascii=False).encode())
        elif url.path == "/kobis/movie/searchMovieList.json":
            time.sleep(float(os.environ.get("SEARCH_DELAY", "0")))
            try:
                limit = max(1, min(100, int(query.get("itemPerPage", "10"))))
            except ValueError:
                limit = 10
            result = search(query.get("movieNm", ""), limit)
            if key.endswith("-escape"):
                for movie in result["movieListResult"]["movieList"]:
                    movie["movieNm"] = movie["movieNm"] + ESCAPES + key
                    movie["directors"] = [{"peopleNm": "<script>alert(1)</script>" + ESCAPES}]
            self.send(200, json.dumps(result, ensure_ascii=False).encode())
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
            if kakao_key.endswith("-401"):
                self.send(401, json.dumps({"errorType": "AccessDeniedError",
                                           "message": f"wrong appKey({kakao_key}) format"}).encode())
                return
            title = query.get("query", "").removesuffix(" 영화 포스터")
            code = titles().get(title)
            body = load(f"kakao/image/{code}.json") if code else None
            text = (body or b'{"documents":[],"meta":{"is_end":true,"pageable_count":0,"total_count":0}}').decode()
            posters = base + ("/html-page" if kakao_key.endswith("-notimage") else "/posters")
            # The paths share no six letters with the key's mode word: the app refuses an image URL
            # carrying part of a key.
            with lock:
                last_kakao_key[0] = kakao_key
            for mode, path in (("huge", "flood-1g"), ("endless", "flood-nolength"),
                               ("gzipbomb", "flood-gz"), ("tagged", "etag-echo"), ("stuffed", "with-text")):
                if kakao_key.endswith("-" + mode):
                    posters = base + "/" + path
            if kakao_key.endswith("-ftp"):
                posters = "ftp://localhost/posters"
            if kakao_key.endswith("-userinfo"):
                posters = posters.replace("http://", f"http://user:{kakao_key}@")
            text = text.replace("https://posters.demo.boxoffice.invalid", posters)
            if kakao_key.endswith("-keyurl"):
                text = text.replace('.png"', f'.png?k={kakao_key}"')
            self.send(200, text.encode())
        elif url.path.startswith("/posters/"):
            # Revalidated on every use (max-age=0), unchanged: a matching If-None-Match gets a 304.
            tag = '"%s"' % url.path.rsplit("/", 1)[-1]
            if self.headers.get("If-None-Match") == tag:
                self.send_response(304)
                self.send_header("ETag", tag)
                self.send_header("Cache-Control", "max-age=0")
                self.end_headers()
            else:
                self.send(200, png(url.path), "image/png", headers={"ETag": tag, "Cache-Control": "max-age=0"})
        elif url.path.startswith(("/etag-echo/", "/with-text/")):
            with lock:
                echoed = last_kakao_key[0]
            image = png(url.path)
            headers = {"Cache-Control": "max-age=3600"}
            if url.path.startswith("/etag-echo/"):
                headers["ETag"] = '"%s"' % echoed
            else:
                # A tEXt chunk before IEND: still a valid PNG, carrying the key in its bytes.
                body = b"Comment\0" + echoed.encode()
                text = struct.pack(">I", len(body)) + b"tEXt" + body + struct.pack(">I", zlib.crc32(b"tEXt" + body))
                image = image[:-12] + text + image[-12:]
            self.send(200, image, "image/png", headers=headers)
        elif url.path.startswith(("/flood-1g/", "/flood-nolength/", "/flood-gz/")):
            self.flood_poster(url.path)
        elif url.path.startswith("/html-page/"):
            self.send(200, b"<html><body>Not a poster</body></html>", "text/html")
        elif url.path == "/requests":
            with lock:
                self.send(200, json.dumps(requests).encode())
        elif url.path == "/hits":
            with lock:
                self.send(200, json.dumps({"hits": hits.get(query.get("path", ""), 0)}).encode())
        else:
            self.send(404, b'{"errorType":"NotFound","message":"no route"}')


    def flood_poster(self, path):
        """A PNG header, then zeros: 1 GiB with an honest length, endless without one, or 400 MB gzipped."""
        block = b"\0" * 65536
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        if path.startswith("/flood-1g/"):
            self.send_header("Content-Length", str(1 << 30))
        elif path.startswith("/flood-gz/"):
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Connection", "close")
        self.end_headers()
        try:
            if path.startswith("/flood-gz/"):
                compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
                self.wfile.write(compressor.compress(b"\x89PNG\r\n\x1a\n"))
                for _ in range(400_000_000 // len(block)):
                    self.wfile.write(compressor.compress(block))
                self.wfile.write(compressor.flush())
                return
            self.wfile.write(b"\x89PNG\r\n\x1a\n")
            sent = 8
            while not path.startswith("/flood-1g/") or sent < (1 << 30):
                self.wfile.write(block)
                sent += len(block)
        except (BrokenPipeError, ConnectionResetError):
            pass


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
