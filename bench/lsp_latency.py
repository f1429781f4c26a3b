"""The language server's time to answer a change with its diagnostics.

    /usr/bin/python3 bench/lsp_latency.py [--gdsl build/gdsl] [--runs 40]

A 500-line file (100 games of five lines: a declaration, a rule, its end, an eval, a
blank) is opened in `gdsl lsp`; then it is changed back and forth between a text with
an error and one without, each change sent as a whole (the server's sync), and timed from
the didChange notification to the diagnostics published for it. The issue's target: at
most 50 ms.
"""

import argparse
import json
import statistics
import subprocess
import time

parser = argparse.ArgumentParser()
parser.add_argument("--gdsl", default="build/gdsl")
parser.add_argument("--runs", type=int, default=40)
args = parser.parse_args()

process = subprocess.Popen([args.gdsl, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def send(message):
    body = json.dumps(message).encode()
    process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    process.stdin.flush()


def read():
    length = None
    while True:
        line = process.stdout.readline().strip()
        if not line:
            break
        key, _, value = line.partition(b":")
        if key.lower() == b"content-length":
            length = int(value)
    return json.loads(process.stdout.read(length))


def diagnostics():
    while True:
        message = read()
        if message.get("method") == "textDocument/publishDiagnostics":
            return message["params"]["diagnostics"]


send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
read()
lines = []
for k in range(100):
    lines += ["game G%d(n) {" % k, "  take {1, %d}" % (k + 2), "}", "eval G%d(%d)" % (k, k), ""]
good = "\n".join(lines)
bad = good.replace("eval G57(57)", "eval G57(x)")
uri = "file:///tmp/gdsl-bench-500.game"
send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
      "params": {"textDocument": {"uri": uri, "languageId": "gdsl", "version": 1, "text": good}}})
diagnostics()
times = []
for version in range(2, args.runs + 2):
    text = bad if version % 2 else good
    started = time.perf_counter()
    send({"jsonrpc": "2.0", "method": "textDocument/didChange",
          "params": {"textDocument": {"uri": uri, "version": version},
                     "contentChanges": [{"text": text}]}})
    published = diagnostics()
    times.append(time.perf_counter() - started)
    assert len(published) == (1 if version % 2 else 0), published
send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
read()
send({"jsonrpc": "2.0", "method": "exit"})
process.wait()
print("a change to a %d-line file answered with its diagnostics, %d changes:" % (len(lines), len(times)))
print("median %.1f ms, min %.1f ms, max %.1f ms" % (statistics.median(times) * 1e3,
                                                  min(times) * 1e3, max(times) * 1e3))
