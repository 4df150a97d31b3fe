#!/usr/bin/env python3
"""`animc serve` under abuse, on the loopback address only, bounded in time
and count (about 20 s).

Every request gets the answer the rules give, or its connection is closed:

* paths it does not serve (`/../etc/passwd` and its encodings, absolute
  URLs, `*`) are 404 and never a file; HEAD is GET's head; other methods are 405;
* malformed request lines and headers are 400 (505 for another HTTP
  version), a body on GET or HEAD is 413, an oversized request line 414, oversized or too
  many headers 431;
* 200 connections at once all get the page; 200 held `/update`s all
  answer within a second of a save; pages that go away (closed, reset)
  are dropped and do not stall the others;
* slow and half-open clients get 408 at the read deadline, or are closed,
  while others are served at once;

and every answer has Content-Type, a right Content-Length and
`Cache-Control: no-store`. Afterwards the server still answers the page,
holds no more descriptors than before, and its memory (VmRSS) stayed
bounded (reported). SIGINT then stops it at once with its connections.
Prints one line per failure and `N passed, M failed`; exits 1 on any failure.
"""

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from serve_check import Server, free_port, save, GOOD  # noqa: E402
from web_check import Tally  # noqa: E402

MEMORY_BOUND_KB = 128 * 1024


class Answer:
    def __init__(self, raw):
        self.raw = raw
        head, _, self.body = raw.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        parts = lines[0].split(" ", 2)
        self.status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
        self.headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            self.headers[name.strip().lower()] = value.strip()

    def well_formed(self, head_only=False):
        length = self.headers.get("content-length", "")
        return (self.status is not None and "content-type" in self.headers and length.isdigit()
                and int(length) == (int(length) if head_only else len(self.body))
                and self.headers.get("cache-control") == "no-store")


def connect(port):
    return socket.create_connection(("127.0.0.1", port), timeout=10)


def read_all(sock, seconds=5):
    """Everything until the server closes (or `seconds` pass)."""
    sock.settimeout(seconds)
    chunks = []
    try:
        while True:
            chunk = sock.recv(1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    except (socket.timeout, ConnectionResetError):
        pass
    return b"".join(chunks)


def exchange(port, raw, seconds=5):
    """Sends `raw` and reads the answer; None when the server closed without one."""
    with connect(port) as sock:
        try:
            sock.sendall(raw)
        except (BrokenPipeError, ConnectionResetError):
            pass
        data = read_all(sock, seconds)
    return Answer(data) if data else None


def request(target, method="GET", port=0, extra=""):
    return f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{extra}\r\n".encode()


class Process:
    """What /proc says of the server: memory and open descriptors."""

    def __init__(self, pid):
        self.pid = pid
        self.peak = 0
        self.running = True
        threading.Thread(target=self._sample, daemon=True).start()

    def rss_kb(self):
        try:
            with open(f"/proc/{self.pid}/status") as handle:
                for line in handle:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0

    def descriptors(self):
        try:
            return len(os.listdir(f"/proc/{self.pid}/fd"))
        except OSError:
            return -1

    def _sample(self):
        while self.running:
            self.peak = max(self.peak, self.rss_kb())
            time.sleep(0.05)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--animc", default=os.path.join(ROOT, ".build", "debug", "animc"))
    arguments = parser.parse_args()
    tally = Tally()
    workdir = tempfile.mkdtemp(prefix="animc-serve-robust-")
    path = os.path.join(workdir, "slide.anim")
    save(path, GOOD.format(to=100))
    server = Server(os.path.abspath(arguments.animc), "slide.anim", workdir, free_port())
    proc = Process(server.process.pid)
    started = time.time()
    try:
        run_checks(server, path, proc, tally)
    except Exception as error:
        tally.check(False, f"robustness check stopped: {error!r}")
    finally:
        proc.running = False
        server.stop(signal.SIGKILL)
    print(f"serve robustness: {time.time() - started:.1f} s")
    print(f"{tally.passed} passed, {tally.failed} failed")
    return 1 if tally.failed else 0


def run_checks(server, path, proc, tally):
    port = server.port
    page = exchange(port, request("/", port=port))
    tally.check(page is not None and page.status == 200 and page.well_formed()
                and page.headers["content-type"] == "text/html; charset=utf-8", "GET / is the page")
    time.sleep(0.3)
    baseline_fds, baseline_rss = proc.descriptors(), proc.rss_kb()

    # Paths it does not serve: 404, never a file.
    for target in ["/../etc/passwd", "/..", "/%2e%2e/etc/passwd", "/%2E%2E/%2E%2E/etc/passwd", "/..%2fetc%2fpasswd",
                   "/%2e%2e%2fetc%2fpasswd", "/%252e%252e%252fetc%252fpasswd", "/..%5c..%5cetc%5cpasswd",
                   "/.%2e/etc/passwd", "//etc/passwd", "/etc/passwd", "/./", "/index.html", "/%00", "/favicon.ico",
                   "/update", "/update?since=", "/update?since=1x", "/update?since=../../etc/passwd", "/?since=1",
                   f"http://127.0.0.1:{port}/", f"http://127.0.0.1:{port}/../etc/passwd", "*", f"127.0.0.1:{port}"]:
        answer = exchange(port, request(target, port=port))
        tally.check(answer is not None and answer.status == 404 and answer.well_formed() and b"root:" not in answer.raw,
                    f"GET {target} is 404: {answer.raw[:60] if answer else None!r}")
    # HEAD is answered like GET, without a body (the same Content-Length).
    # (A HEAD of /update is answered at once, never held.)
    full = exchange(port, request("/", port=port))
    for target in ["/", "/update?since=0"]:
        answer = exchange(port, request(target, method="HEAD", port=port))
        ok = answer is not None and full is not None and answer.status == 200 and answer.body == b""
        same = target != "/" or answer.headers.get("content-length") == full.headers.get("content-length")
        tally.check(ok and same and answer.well_formed(head_only=True),
                    f"HEAD {target} is GET's head: {answer.raw[:60] if answer else None!r}")
    # Methods other than GET and HEAD: 405, Allow: GET, HEAD, with a body or without.
    for method in ["POST", "PUT", "DELETE", "OPTIONS", "TRACE", "PATCH", "PROPFIND", "get", "head", "BREW"]:
        for body in [b"", b"hello"]:
            extra = f"Content-Length: {len(body)}\r\n" if body else ""
            answer = exchange(port, request("/", method=method, port=port, extra=extra) + body)
            ok = answer is not None and answer.status == 405 and answer.headers.get("allow") == "GET, HEAD"
            tally.check(ok and answer.well_formed(), f"{method} / ({len(body)} bytes) is 405: {answer.raw[:60] if answer else None!r}")

    # Malformed, oversized, or with a body.
    host = f"Host: 127.0.0.1:{port}\r\n"
    cases = [
        (b"GET /\r\n\r\n", 400), (b"GET  / HTTP/1.1\r\n" + host.encode() + b"\r\n", 400),
        (b"GET / HTTP/1.1 x\r\n\r\n", 400), (b"GET / FOO/1.1\r\n\r\n", 400), (b" GET / HTTP/1.1\r\n\r\n", 400),
        (b"GET / HTTP/2.0\r\n\r\n", 505), (b"GET / HTTP/1.1\r\n\r\n", 400),
        (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(40)), 400),
        (bytes((i * 37 + 11) % 256 for i in range(300)) + b"\r\n\r\n", 400),
        (b"G\x00T / HTTP/1.1\r\n\r\n", 400),
        (request("/", port=port, extra="NoColon\r\n"), 400), (request("/", port=port, extra=" folded: x\r\n"), 400),
        (request("/", port=port, extra="X-A : b\r\n"), 400), (request("/", port=port, extra="X-A: a\x00b\r\n"), 400),
        (b"GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nHost: 127.0.0.1:%d\r\n\r\n" % (port, port), 400),
        (request("/", port=port, extra="Content-Length: abc\r\n"), 400),
        (request("/", port=port, extra="Content-Length: 1\r\nContent-Length: 2\r\n"), 400),
        (request("/", port=port, extra="Content-Length: 5\r\n") + b"hello", 413),
        (request("/", port=port, extra="Transfer-Encoding: chunked\r\n") + b"5\r\nhello\r\n0\r\n\r\n", 413),
        (b"GET /" + b"a" * 3000 + b" HTTP/1.1\r\n" + host.encode() + b"\r\n", 414),
        (b"GET /" + b"a" * 100_000, 414),
        (request("/", port=port, extra="".join(f"X-{i}: {i}\r\n" for i in range(100))), 431),
        (request("/", port=port, extra="X-Big: " + "b" * 10_000 + "\r\n"), 431),
        (request("/", port=port, extra="".join(f"X-{i}: {'c' * 150}\r\n" for i in range(60))), 431),
    ]
    for raw, status in cases:
        answer = exchange(port, raw)
        tally.check(answer is not None and answer.status == status and answer.well_formed(),
                    f"{raw[:40]!r}… is {status}: {answer.raw[:60] if answer else None!r}")
    # A request in the old style, and one with a body of 0: served.
    answer = exchange(port, b"GET / HTTP/1.0\r\n\r\n")
    tally.check(answer is not None and answer.status == 200, "HTTP/1.0 without Host is served")
    answer = exchange(port, request("/", port=port, extra="Content-Length: 0\r\n"))
    tally.check(answer is not None and answer.status == 200, "Content-Length: 0 is served")

    # 200 connections at once, each asking for the page.
    started = time.time()
    socks = [connect(port) for _ in range(200)]
    for sock in socks:
        sock.sendall(request("/", port=port))
    answers = [Answer(read_all(sock)) for sock in socks]
    for sock in socks:
        sock.close()
    took = time.time() - started
    good = sum(1 for a in answers if a.status == 200 and a.body == page.body)
    tally.check(good == 200, f"200 connections at once: {good} got the page ({took:.2f} s)")
    print(f"200 concurrent page requests answered in {took:.2f} s")

    # 200 held updates, plus 50 pages that go away (closed or reset): a save answers the 200 within a second.
    state = json.loads(exchange(port, request("/update?since=0", port=port)).body)
    version = state["version"]
    held = [connect(port) for _ in range(200)]
    for sock in held:
        sock.sendall(request(f"/update?since={version}", port=port))
    gone = [connect(port) for _ in range(50)]
    for index, sock in enumerate(gone):
        sock.sendall(request(f"/update?since={version}", port=port))
    time.sleep(0.3)
    for index, sock in enumerate(gone):
        if index % 2:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")  # reset
        sock.close()
    for sock in held[:5]:
        sock.setblocking(False)
        try:
            early = sock.recv(1)
        except BlockingIOError:
            early = None
        sock.setblocking(True)
        tally.check(early is None, "an update is held while nothing changes")
    probe_started = time.time()
    answer = exchange(port, request("/", port=port))
    tally.check(answer is not None and answer.status == 200 and time.time() - probe_started < 0.5,
                f"a page is served at once while 200 updates are held ({time.time() - probe_started:.3f} s)")
    save(path, GOOD.format(to=200))
    saved = time.time()
    versions = [json.loads(Answer(read_all(sock, 3)).body or b"{}").get("version") for sock in held]
    took = time.time() - saved
    for sock in held:
        sock.close()
    answered = sum(1 for v in versions if v is not None and v > version)
    tally.check(answered == 200 and took < 1.5, f"a save answers all 200 held updates: {answered} in {took:.2f} s")
    print(f"200 held updates answered {took * 1000:.0f} ms after the save")

    # Slow and half-open clients, while others are served.
    slow = []
    for _ in range(20):
        sock = connect(port)
        sock.sendall(b"GET / HTTP/1.1\r\n")
        slow.append(sock)
    silent = [connect(port) for _ in range(10)]
    half = connect(port)
    half.sendall(b"GET / HTT")
    half.shutdown(socket.SHUT_WR)
    whole_then_half = connect(port)
    whole_then_half.sendall(request("/", port=port))
    whole_then_half.shutdown(socket.SHUT_WR)
    deaf = connect(port)
    deaf.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    deaf.sendall(request("/", port=port))
    started = time.time()
    for second in range(3):  # the slow ones trickle a header each second
        for sock in slow:
            try:
                sock.sendall(b"X-Slow: %d\r\n" % second)
            except OSError:
                pass
        probe_started = time.time()
        answer = exchange(port, request("/", port=port))
        took = time.time() - probe_started
        tally.check(answer is not None and answer.status == 200 and took < 0.5,
                    f"a page is served at once among slow clients ({took:.3f} s)")
        time.sleep(max(0.0, started + second + 1 - time.time()))
    tally.check(read_all(half, 2) == b"", "a client that closes mid-request is closed")
    tally.check(Answer(read_all(whole_then_half, 2)).status == 200, "a client that closes after its request gets the page")
    timeouts = [Answer(read_all(sock, 8)) for sock in slow + silent]
    took = time.time() - started
    tally.check(all(a.status == 408 and a.well_formed() for a in timeouts) and took < 8,
                f"30 slow or silent clients get 408 at the read deadline ({took:.1f} s)")
    for sock in slow + silent + [half, whole_then_half, deaf]:
        sock.close()

    # Afterwards: still serving, no descriptors left behind, memory bounded.
    answer = exchange(port, request("/", port=port))
    tally.check(answer is not None and answer.status == 200 and answer.well_formed(), "the server still answers the page")
    deadline = time.time() + 4
    while time.time() < deadline and proc.descriptors() > baseline_fds:
        time.sleep(0.1)
    tally.check(proc.descriptors() == baseline_fds, f"open descriptors back to {baseline_fds}: {proc.descriptors()}")
    rss = proc.rss_kb()
    tally.check(proc.peak < MEMORY_BOUND_KB, f"memory bounded: peak VmRSS {proc.peak} kB < {MEMORY_BOUND_KB} kB")
    print(f"VmRSS: {baseline_rss} kB before, peak {proc.peak} kB, {rss} kB after")

    # SIGINT stops it at once, with updates held: their connections close.
    version = json.loads(exchange(port, request("/update?since=0", port=port)).body)["version"]
    held = [connect(port) for _ in range(20)]
    for sock in held:
        sock.sendall(request(f"/update?since={version}", port=port))
    time.sleep(0.2)
    started = time.time()
    status = server.stop(signal.SIGINT)
    took = time.time() - started
    tally.check(status == 128 + signal.SIGINT and took < 1, f"SIGINT stops it at once (exit {status} in {took:.2f} s)")
    tally.check(all(read_all(sock, 1) == b"" for sock in held), "its connections are closed")
    for sock in held:
        sock.close()


if __name__ == "__main__":
    sys.exit(main())
