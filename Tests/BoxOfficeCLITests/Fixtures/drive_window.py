#!/usr/bin/env python3
"""Drives `boxoffice browse` in a small pseudo-terminal window, resizes it, and quits with Ctrl-C.

usage: drive_window.py <path to boxoffice>
Prints one line per step and exits 0 when every screen fit its window, 1 otherwise. Checks:
  - in a 100x10 window the first screen is at most 10 lines: the title, the column names and row 1 shown;
  - after the window grows to 60x24 (TIOCSWINSZ, then SIGWINCH as a terminal sends it) the screen is
    drawn again at once, without a key: at most 24 lines of at most 60 columns, row 10 shown;
  - Ctrl-C quits with exit code 130 and the terminal restored.
"""
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
import unicodedata

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
CLEAR = b"\x1b[H\x1b[2J"


def width(text):
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def set_size(fd, columns, rows):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def main():
    binary = sys.argv[1]
    primary, secondary = pty.openpty()
    set_size(secondary, 100, 10)
    env = dict(os.environ, TERM="xterm-256color", NO_COLOR="1")
    for name in ("KOBIS_API_KEY", "KAKAO_REST_API_KEY", "COLUMNS", "LINES"):
        env.pop(name, None)
    process = subprocess.Popen([binary, "browse"], stdin=secondary, stdout=secondary, stderr=secondary,
                               env=env, close_fds=True)
    transcript = b""

    def last_frame(pattern, timeout=20.0):
        """The last full screen drawn, once it matches `pattern`, as lines without escape sequences."""
        nonlocal transcript
        deadline = time.time() + timeout
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
            if CLEAR in transcript:
                frame = transcript.rsplit(CLEAR, 1)[1].decode("utf-8", "replace")
                lines = ANSI.sub("", frame).split("\r\n")
                if re.search(pattern, "\n".join(lines)):
                    return lines
        frame = transcript.rsplit(CLEAR, 1)[-1].decode("utf-8", "replace")
        raise AssertionError(f"never saw {pattern!r}; last screen:\n{ANSI.sub('', frame)[-1500:]}")

    try:
        lines = last_frame(r"›[\s\S]*q quit")
        assert len(lines) <= 10, f"{len(lines)} lines in a 10-line window:\n" + "\n".join(lines)
        assert lines[0].startswith("Daily box office 2026-11-21"), f"the title is off-screen: {lines[0]!r}"
        assert "Rank" in lines[2] and re.match(r"› +1 ", lines[3]), "row 1 is off-screen:\n" + "\n".join(lines)
        print("ok: a 100x10 window shows the title, the column names and row 1 in 10 lines")

        set_size(secondary, 60, 24)
        process.send_signal(signal.SIGWINCH)
        lines = last_frame(r"\n +10 [\s\S]*q quit")
        assert len(lines) <= 24, f"{len(lines)} lines in a 24-line window"
        too_wide = [line for line in lines if width(line) > 60]
        assert not too_wide, f"lines wider than 60 columns: {too_wide}"
        print("ok: a resize to 60x24 redraws at once, fitted to the new size, with row 10")

        os.write(primary, b"\x03")
        process.wait(timeout=10)
        try:
            while select.select([primary], [], [], 0.2)[0]:
                chunk = os.read(primary, 65536)
                if not chunk:
                    break
                transcript += chunk
        except OSError:
            pass
        assert process.returncode == 130, f"exit code {process.returncode}"
        assert b"\x1b[?1049l" in transcript and b"\x1b[?25h" in transcript, "terminal not restored"
        print("ok: Ctrl-C quits with exit code 130, the terminal restored")
    except Exception as error:  # noqa: BLE001 - report any failure as a test failure
        print(f"FAILED: {error}")
        process.kill()
        return 1
    finally:
        os.close(secondary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
