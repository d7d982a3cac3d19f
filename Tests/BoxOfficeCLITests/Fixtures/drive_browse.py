#!/usr/bin/env python3
"""Drives `boxoffice browse` through a real pseudo-terminal, as a person would, and checks each screen.

usage: drive_browse.py <path to boxoffice> [--dump]
Prints one line per step and exits 0 when every screen showed what it should, 1 otherwise.
"""
import os
import pty
import re
import select
import subprocess
import sys
import time

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def main():
    binary = sys.argv[1]
    dump = "--dump" in sys.argv
    primary, secondary = pty.openpty()
    env = dict(os.environ, TERM="xterm-256color", NO_COLOR="1")
    env.pop("KOBIS_API_KEY", None)
    env.pop("KAKAO_REST_API_KEY", None)
    process = subprocess.Popen([binary, "browse"], stdin=secondary, stdout=secondary, stderr=secondary,
                               env=env, close_fds=True)
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
                screen = ANSI.sub("", transcript[start:].decode("utf-8", "replace"))
                if re.search(pattern, screen):
                    return screen
        screen = ANSI.sub("", transcript[start:].decode("utf-8", "replace"))
        raise AssertionError(f"never saw {pattern!r}; last screen:\n{screen[-1500:]}")

    def press(keys):
        os.write(primary, keys.encode("utf-8"))

    steps = [
        ("the list for the latest demo day", None, r"Daily box office 2026-11-21[\s\S]*검은 바다[\s\S]*q quit"),
        ("the grid after g", "g", r"┌[\s\S]*#1 NEW[\s\S]*q quit"),
        ("the list again after g", "g", r"Rank  Change[\s\S]*q quit"),
        ("the previous day after ←", "\x1b[D", r"Daily box office 2026-11-20[\s\S]*붉은 안개[\s\S]*q quit"),
        ("the next day after →", "\x1b[C", r"Daily box office 2026-11-21[\s\S]*q quit"),
        ("a refresh after r", "r", r"Daily box office 2026-11-21[\s\S]*검은 바다[\s\S]*q quit"),
        ("the details of the second film after ↓ and Enter", "\x1b[B\r",
         r"서울 탈출[\s\S]*Escape from Seoul[\s\S]*Poster\s+https://posters\.demo[\s\S]*b back"),
        ("the list after b", "b", r"Daily box office 2026-11-21[\s\S]*q quit"),
        ("the details again after Enter", "\r", r"Poster[\s\S]*b back"),
        ("the list after a lone Esc, with no further key", "\x1b", r"Daily box office 2026-11-21[\s\S]*q quit"),
    ]
    try:
        for name, keys, pattern in steps:
            if keys is not None:
                press(keys)
            screen = read_until(pattern)
            if dump:
                print(screen[-1200:])
            print(f"ok: {name}")
        press("q")
        process.wait(timeout=10)
        read_rest = b""
        try:
            while True:
                ready, _, _ = select.select([primary], [], [], 0.2)
                if not ready:
                    break
                chunk = os.read(primary, 65536)
                if not chunk:
                    break
                read_rest += chunk
        except OSError:
            pass
        transcript += read_rest
        assert process.returncode == 0, f"exit code {process.returncode}"
        print("ok: q quits with exit code 0")
        assert b"\x1b[?1049l" in transcript and b"\x1b[?25h" in transcript, "terminal not restored"
        print("ok: the terminal is restored (main screen, cursor shown)")
    except Exception as error:  # noqa: BLE001 - report any failure as a test failure
        print(f"FAILED: {error}")
        process.kill()
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
