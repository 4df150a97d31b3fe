#!/usr/bin/env python3
"""Latency of `animc lsp` as an editor sees it (issue 24; a benchmark, not a test).

* diagnostics: a 1 MB file is opened, then changed (one number edited);
  the time from writing the change to reading its publishDiagnostics
  (target: 300 ms). Once for a file without errors (the whole file is run,
  as `animc check` runs it) and once with an error on its last line.
* hover and completion: on a 1,000-line file, the time from writing a
  request to reading its answer, median and worst of many (target: 20 ms);
  the same for code actions, signature help, inlay hints, semantic tokens,
  document highlights and prepareRename (issue 38),
  and formatting that file (target: 300 ms);
* `animc fmt -` of a 1 MB file with its spacing undone, the whole process (target: 300 ms);
  and the first hover after a change, which needs the names and terms of
  the new text (prepared while the editor is quiet).

   python3 bench/lsp.py [--animc PATH] [--repeat N]

Timings include the pipe both ways: what a client waits. On a shared
machine the wall time also holds the waits for a core, so each line gives
the server's own CPU time too (user + system, from /proc; for hover and
completion the total over all repeats, divided by their number).
"""

import os

import argparse
import json
import statistics
import subprocess
import sys
import time


def message(obj):
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Session:
    def __init__(self, animc):
        self.process = subprocess.Popen([animc, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 0
        self.request("initialize", {"capabilities": {}})
        self.notify("initialized", {})

    def send(self, obj):
        self.process.stdin.write(message(obj))
        self.process.stdin.flush()

    def read(self):
        length = None
        while True:
            line = self.process.stdout.readline()
            if line in (b"\r\n", b""):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.process.stdout.read(length))

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            reply = self.read()
            if reply.get("id") == self.next_id:
                return reply

    def diagnostics(self, uri, version):
        while True:
            reply = self.read()
            params = reply.get("params", {})
            if reply.get("method") == "textDocument/publishDiagnostics" and params.get("uri") == uri \
                    and params.get("version") == version:
                return params["diagnostics"]

    def cpu_ms(self):
        """The server's user + system CPU time so far, in milliseconds."""
        fields = open(f"/proc/{self.process.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")

    def close(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.process.wait(timeout=10)


def big_file(size, broken, max_lines=None):
    lines = ["view card opacity 0 scale 1", "let base = 300ms", "let lift = 12"]
    count = 0
    total = 0
    while total < size and (max_lines is None or len(lines) < max_lines):
        total += len(lines[-1]) + 1
        lines.append(f"let step{count} = fadeIn v{count % 50} in base ; animate v{count % 50}.y from {count % 97} to lift "
                     f"in 120ms with ease-out-cubic || scale card from 1 to 1.05 in 80ms with ease-in-out")
        count += 1
    lines.append("let final = " + " ; ".join(f"step{i}" for i in range(max(0, count - 200), count)) + (" ; bogus" if broken else ""))
    return "\n".join(lines) + "\n"


def measure_diagnostics(session, text, name):
    uri = f"file:///bench/{name}.anim"
    session.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "anim", "version": 1, "text": text}})
    session.diagnostics(uri, 1)
    times, cpu = [], []
    for version in range(2, 7):
        changed = text.replace("from 0 to lift", f"from {version} to lift", 1)
        start, start_cpu = time.perf_counter(), session.cpu_ms()
        session.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                  "contentChanges": [{"text": changed}]})
        found = session.diagnostics(uri, version)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append(session.cpu_ms() - start_cpu)
    return times, cpu, len(found)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--animc", default=".build-bench/release/animc")
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    session = Session(args.animc)
    failed = False
    print("# animc lsp latency (bench/lsp.py): milliseconds from writing a message to reading its answer")
    for broken in (False, True):
        text = big_file(1 << 20, broken)
        times, cpu, count = measure_diagnostics(session, text, "big-broken" if broken else "big")
        ok = statistics.median(times) <= 300
        failed |= not ok
        print(f"{'ok  ' if ok else 'MISS'} diagnostics after a change, {len(text.encode()) / 1e6:.2f} MB "
              f"{'with an error' if broken else 'without errors'} ({count} diagnostics): "
              f"median {statistics.median(times):.1f}, worst {max(times):.1f}; server CPU median "
              f"{statistics.median(cpu):.0f} (target 300)")

    lines = big_file(10**9, False, max_lines=998).split("\n")[:999]
    text = "\n".join(lines) + "\nlet final = step10 ; step20 with \n"
    uri = "file:///bench/thousand.anim"
    session.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "anim", "version": 1, "text": text}})
    session.diagnostics(uri, 1)
    line_count = text.count("\n")
    for method, position in (("textDocument/hover", {"line": 500, "character": 6}),
                             ("textDocument/hover", {"line": 999, "character": 14}),
                             ("textDocument/completion", {"line": 999, "character": 33}),
                             ("textDocument/completion", {"line": 500, "character": 0})):
        times = []
        start_cpu = session.cpu_ms()
        for _ in range(args.repeat):
            start = time.perf_counter()
            reply = session.request(method, {"textDocument": {"uri": uri}, "position": position})
            times.append((time.perf_counter() - start) * 1000)
        cpu = (session.cpu_ms() - start_cpu) / args.repeat
        if reply.get("result") is None:
            print(f"MISS {method} at {position}: no answer ({reply})")
            failed = True
        worst = max(times)
        ok = statistics.median(times) < 20
        failed |= not ok
        print(f"{'ok  ' if ok else 'MISS'} {method.split('/')[1]} at {position['line']}:{position['character']} on a "
              f"{line_count}-line file: median {statistics.median(times):.2f}, worst {worst:.2f}; server CPU "
              f"{cpu:.2f} a request (target 20)")
    # The first hover after a change, 50 ms after its diagnostics (a person's pause; the server
    # prepares the names and terms meanwhile), and right after them.
    for pause in (0.05, 0):
        times = []
        for version in range(2, 12):
            session.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                      "contentChanges": [{"text": text.replace("from 0 to", f"from {version} to", 1)}]})
            session.diagnostics(uri, version)
            time.sleep(pause)
            start = time.perf_counter()
            session.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 500, "character": 6}})
            times.append((time.perf_counter() - start) * 1000)
        ok = statistics.median(times) < 20
        failed |= not ok
        print(f"{'ok  ' if ok else 'MISS'} the first hover after a change, {pause * 1000:.0f} ms after its diagnostics: "
              f"median {statistics.median(times):.2f}, worst {max(times):.2f} (target 20)")
    # The writing half (issue 38): code actions, signature help and inlay hints on a 1,000-line
    # file (an editor asks for the visible lines' hints), formatting it, and `animc fmt` of a 1 MB file.
    lines = big_file(10**9, False, max_lines=996).split("\n")[:997]
    text = "\n".join(lines) + "\nlet pop(v, d = 1s) = fadeIn v in d with ease-inout\nlet final = step10 ; pop(card, \n"
    uri = "file:///bench/writing.anim"
    session.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "anim", "version": 1, "text": text}})
    session.diagnostics(uri, 1)
    # The same file with the call finished, bound to a new name, and the easing spelt right: rename and formatting refuse a file
    # with errors, by design. Semantic tokens cover the whole file and are asked once a change, like
    # diagnostics: their target is 100 ms (issue 38 sets none), the per-position requests' is 20.
    whole = "file:///bench/writing-whole.anim"
    session.notify("textDocument/didOpen", {"textDocument": {"uri": whole, "languageId": "anim", "version": 1,
                                                             "text": text.replace("let final = step10 ; pop(card, \n", "let last = step10 ; pop(card)\n").replace("ease-inout", "ease-in-out")}})
    session.diagnostics(whole, 1)
    call_end = len(text.split("\n")[998])
    line_count = text.count("\n")
    visible = {"start": {"line": 480, "character": 0}, "end": {"line": 530, "character": 0}}
    for method, params, target, document in (
            ("textDocument/codeAction", {"range": {"start": {"line": 997, "character": 38}, "end": {"line": 997, "character": 38}},
                                         "context": {"diagnostics": []}}, 20, uri),
            ("textDocument/codeAction", {"range": {"start": {"line": 500, "character": 17}, "end": {"line": 500, "character": 60}},
                                         "context": {"diagnostics": []}}, 20, uri),
            ("textDocument/signatureHelp", {"position": {"line": 998, "character": call_end}}, 20, uri),
            ("textDocument/inlayHint", {"range": visible}, 20, uri),
            ("textDocument/semanticTokens/full", {}, 100, whole),
            ("textDocument/documentHighlight", {"position": {"line": 998, "character": 14}}, 20, whole),
            ("textDocument/prepareRename", {"position": {"line": 500, "character": 6}}, 20, whole),
            ("textDocument/formatting", {"options": {"tabSize": 2, "insertSpaces": True}}, 300, whole)):
        times = []
        start_cpu = session.cpu_ms()
        for _ in range(args.repeat if target <= 100 else 10):
            start = time.perf_counter()
            reply = session.request(method, dict(params, textDocument={"uri": document}))
            times.append((time.perf_counter() - start) * 1000)
        cpu = (session.cpu_ms() - start_cpu) / len(times)
        if reply.get("result") is None:
            print(f"MISS {method}: no answer ({reply})")
            failed = True
        ok = statistics.median(times) < target
        failed |= not ok
        print(f"{'ok  ' if ok else 'MISS'} {method.split('/')[1]} on a {line_count}-line file: median "
              f"{statistics.median(times):.2f}, worst {max(times):.2f}; server CPU {cpu:.2f} a request (target {target})")
    session.close()
    big = big_file(1 << 20, False).replace(" ; ", ";").replace(" || ", "||")
    times = []
    for _ in range(5):
        start = time.perf_counter()
        done = subprocess.run([args.animc, "fmt", "-"], input=big.encode(), stdout=subprocess.PIPE, check=True)
        times.append((time.perf_counter() - start) * 1000)
    ok = statistics.median(times) < 300 and done.stdout.count(b" ; ") > 1000
    failed |= not ok
    print(f"{'ok  ' if ok else 'MISS'} animc fmt - of a {len(big.encode()) / 1e6:.2f} MB file (whole process): "
          f"median {statistics.median(times):.1f}, worst {max(times):.1f} (target 300)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
