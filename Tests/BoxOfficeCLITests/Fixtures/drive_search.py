#!/usr/bin/env python3
"""Drives the search in `boxoffice browse` through a real pseudo-terminal against the demo server, typing
as quickly as a person does, and checks each screen and how many searches reached the server.

usage: drive_search.py <path to boxoffice> <demo server base URL> [--dump]
Prints one line per step and exits 0 when every check passed, 1 otherwise.
"""
import json
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
SEARCH_PATH = "/kobis/movie/searchMovieList.json"


def main():
    cache = tempfile.mkdtemp()
    try:
        return drive(cache)
    finally:
        shutil.rmtree(cache, ignore_errors=True)  # the run's cache folder leaves nothing behind


def drive(cache):
    binary, base = sys.argv[1], sys.argv[2]
    dump = "--dump" in sys.argv
    primary, secondary = pty.openpty()
    env = dict(os.environ, TERM="xterm-256color", NO_COLOR="1", KOBIS_API_KEY="test-key",
               KAKAO_REST_API_KEY="test-rest-key", KOBIS_BASE_URL=base + "/kobis", KAKAO_BASE_URL=base + "/kakao",
               BOXOFFICE_CACHE_DIR=cache)
    process = subprocess.Popen([binary, "browse", "--offline"] if "--offline" in sys.argv else [binary, "browse"],
                               stdin=secondary, stdout=secondary, stderr=secondary, env=env, close_fds=True)
    os.close(secondary)
    transcript = b""

    def read_until(pattern, timeout=20.0):
        nonlocal transcript
        deadline = time.time() + timeout
        start = len(transcript)
        while time.time() < deadline:
            ready, _, _ = select.select([primary], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(primary, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                transcript += chunk
                # The last full screen drawn: everything after the last clear.
                screen = ANSI.sub("", transcript[start:].decode("utf-8", "replace").split("\x1b[2J")[-1])
                if re.search(pattern, screen):
                    return screen
        screen = ANSI.sub("", transcript[start:].decode("utf-8", "replace"))
        raise AssertionError(f"never saw {pattern!r}; last screen:\n{screen[-1500:]}")

    def press(keys):
        os.write(primary, keys.encode("utf-8"))

    def searches():
        with urllib.request.urlopen(f"{base}/hits?path={SEARCH_PATH}") as response:
            return json.load(response)["hits"]

    try:
        read_until(r"Daily box office[\s\S]*q quit")
        print("ok: the chart")
        press("/")
        read_until(r"Search films by title[\s\S]*Esc back")
        print("ok: / opens the search")
        for character in "Seoul":
            press(character)
            time.sleep(0.03)
        screen = read_until(r"1 film matches \"Seoul\"[\s\S]*서울 탈출[\s\S]*20261002")
        if dump:
            print(screen)
        print("ok: the results for what was typed")
        time.sleep(0.5)
        count = searches()
        assert count == 1, f"{count} searches reached the server for one quickly typed query"
        print("ok: typing quickly made one request, for the final query")
        press("\x7f\x7f\x7f\x7f\x7fq")
        read_until(r"/ q▏[\s\S]*No film matches \"q\"")
        print("ok: backspace edits the query, and q is typed, not quit")
        press("\x7f서울")
        read_until(r"1 film matches \"서울\"[\s\S]*› 서울 탈출")
        print("ok: Hangul is typed too")
        press("\r")
        read_until(r"서울 탈출[\s\S]*Escape from Seoul[\s\S]*Directors[\s\S]*b back")
        print("ok: Enter opens the result's details")
        press("b")
        read_until(r"Search films by title[\s\S]*서울 탈출[\s\S]*Esc back")
        print("ok: b returns to the search")
        press("\x1b")
        read_until(r"Daily box office[\s\S]*q quit")
        print("ok: Esc returns to the chart")
        press("q")
        process.wait(timeout=10)
        assert process.returncode == 0, f"exit code {process.returncode}"
        print("ok: q quits with exit code 0")
    except Exception as error:  # noqa: BLE001 - report any failure as a test failure
        print(f"FAILED: {error}")
        process.kill()
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
