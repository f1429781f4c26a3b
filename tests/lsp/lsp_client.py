"""The language server (gdsl lsp, docs/editors.md) driven by a scripted client.

    lsp_client.py GDSL SOURCE_DIR WORK_DIR

initialize, didOpen of a file with an error (its diagnostic's exact range,
message and note as related information), didChange to a correct text (no
diagnostics), a warning, hover on a game (its signature and its first values,
checked against a brute force written here), on an octal code and on a built-in,
completion, go to definition (a game, a parameter, a constant, an imported
file's game, the import's path), the outline, errors in an imported file, an
unknown method, an error in a 500-line file, shutdown and exit (status 0).
"""

import json
import os
import subprocess
import sys

GDSL, SOURCE, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(WORK, exist_ok=True)
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


class Client:
    def __init__(self):
        self.process = subprocess.Popen(
            [GDSL, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        self.next_id = 0
        self.notifications = []

    def send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def read(self):
        length = None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise EOFError("gdsl lsp closed its output")
            line = line.strip()
            if not line:
                break
            key, _, value = line.partition(b":")
            if key.lower() == b"content-length":
                length = int(value)
        return json.loads(self.process.stdout.read(length))

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = self.read()
            if message.get("id") == self.next_id and "method" not in message:
                return message
            self.notifications.append(message)

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics(self, uri):
        """The next diagnostics published for `uri`."""
        while True:
            for k, m in enumerate(self.notifications):
                if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
                    del self.notifications[k]
                    return m["params"]["diagnostics"]
            self.notifications.append(self.read())


def uri(path):
    return "file://" + os.path.abspath(path)


def pos(text, needle, offset=0, nth=0):
    """The LSP position of the nth `needle` in `text`, plus `offset` characters."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += offset
    line = text.count("\n", 0, at)
    return {"line": line, "character": at - (text.rfind("\n", 0, at) + 1)}


def mex(values):
    m = 0
    while m in values:
        m += 1
    return m


def subtraction(n, takes):
    g = []
    for h in range(n + 1):
        g.append(mex({g[h - t] for t in takes if t <= h}))
    return g


lib = os.path.join(WORK, "lib.game")
with open(lib, "w") as f:
    f.write("// a library\ngame Lib(n) {\n  take 1..2\n}\n")
with open(os.path.join(WORK, "broken.game"), "w") as f:
    f.write("game Broken(n) {\n  take 1..\n}\n")
main = os.path.join(WORK, "main.game")
good = (
    'import "lib.game"\n'
    "const N = 9\n"
    "game Sub(n) {\n"
    "  take {1, 3, 4}\n"
    "}\n"
    'game Kayles = octal "0.77"\n'
    'game Hex = hex "0.8F"\n'
    "game Two(a, b) {\n"
    "  move left(k in 1..a) -> Two(a - k, b)\n"
    "  move right(k in 1..b) -> Two(a, b - k + 0 * a)\n"
    "}\n"
    "eval Sub(N) + Lib(3)\n"
    "table Sub(0..N)\n"
)
bad = good.replace("eval Sub(N) + Lib(3)", "eval Sub(M) + Lib(3)")

c = Client()
init = c.request("initialize", {"processId": None, "rootUri": uri(WORK), "capabilities": {}})
caps = init["result"]["capabilities"]
check(caps["textDocumentSync"]["change"] == 1 and caps["hoverProvider"], "capabilities: %r" % caps)
check(init["result"]["serverInfo"]["name"] == "gdsl", "server info")
c.notify("initialized", {})

# didOpen with an error: its range, message and note.
c.notify("textDocument/didOpen", {"textDocument": {"uri": uri(main), "languageId": "gdsl",
                                                     "version": 1, "text": bad}})
diags = c.diagnostics(uri(main))
check(len(diags) == 1, "one diagnostic: %r" % diags)
if diags:
    d = diags[0]
    start = pos(bad, "M) + Lib")
    check(d["range"]["start"] == start, "the error's start: %r, want %r" % (d["range"], start))
    check(d["range"]["end"] == {"line": start["line"], "character": start["character"] + 1},
          "the error's end: %r" % d["range"])
    check(d["severity"] == 1 and "unknown name 'M'" in d["message"], "the message: %r" % d)
    # `did you mean 'N'?` comes as a note pointing at N's declaration, or in the message.
    related = d.get("relatedInformation", [])
    check("did you mean 'N'" in d["message"]
          or any("N" in r["message"] for r in related), "the suggestion: %r" % d)

# didChange to the correct text: no diagnostics.
c.notify("textDocument/didChange", {"textDocument": {"uri": uri(main), "version": 2},
                                      "contentChanges": [{"text": good}]})
check(c.diagnostics(uri(main)) == [], "no diagnostics once fixed")

# A diagnostic with a note: a game declared twice (the note points at the first).
twice = good + "game Sub(n) {\n  take 1\n}\n"
c.notify("textDocument/didChange", {"textDocument": {"uri": uri(main), "version": 3},
                                      "contentChanges": [{"text": twice}]})
diags = c.diagnostics(uri(main))
check(len(diags) >= 1 and diags[0]["range"]["start"] == pos(twice, "Sub(n)", nth=1),
      "the second Sub is the error: %r" % diags)
related = diags[0].get("relatedInformation", []) if diags else []
check(any(r["location"]["uri"] == uri(main)
          and r["location"]["range"]["start"] == pos(twice, "Sub(n)") for r in related),
      "the note points at the first Sub: %r" % related)
c.notify("textDocument/didChange", {"textDocument": {"uri": uri(main), "version": 4},
                                      "contentChanges": [{"text": good}]})
check(c.diagnostics(uri(main)) == [], "clean again")

# Hover.
h = c.request("textDocument/hover", {"textDocument": {"uri": uri(main)},
                                     "position": pos(good, "Sub(N)", 1)})["result"]
value = h["contents"]["value"] if h else ""
check("game Sub(n)" in value, "hover on Sub: %r" % value)
want = "Sub(0..15): " + " ".join(str(v) for v in subtraction(15, (1, 3, 4)))
check(want in value, "hover shows the first values: %r" % value)
check(h and h["range"]["start"] == pos(good, "Sub(N)"), "hover's range")
h = c.request("textDocument/hover", {"textDocument": {"uri": uri(main)},
                                     "position": pos(good, "0.77", 2)})["result"]
value = h["contents"]["value"] if h else ""
check("1 token: remove them, leaving nothing (the whole heap), one heap or two heaps" in value
      and "2 tokens: remove them, leaving nothing (the whole heap), one heap or two heaps" in value,
      "hover on an octal code: %r" % value)
h = c.request("textDocument/hover", {"textDocument": {"uri": uri(main)},
                                     "position": pos(good, "0.8F", 1)})["result"]
value = h["contents"]["value"] if h else ""
check("1 token: remove them, leaving three heaps" in value
      and "2 tokens: remove them, leaving nothing (the whole heap), one heap, two heaps or three heaps"
      in value, "hover on a hexadecimal code: %r" % value)
h = c.request("textDocument/hover", {"textDocument": {"uri": uri(main)},
                                     "position": pos(good, "Lib(3)", 1)})["result"]
value = h["contents"]["value"] if h else ""
check("Lib(0..15): " + " ".join(str(v) for v in subtraction(15, (1, 2))) in value,
      "hover on an imported game: %r" % value)
h = c.request("textDocument/hover", {"textDocument": {"uri": uri(main)},
                                     "position": pos(good, "k in 1..a", 0)})["result"]
check(h is None, "hover on a local name: nothing")

# Completion.
items = c.request("textDocument/completion", {"textDocument": {"uri": uri(main)},
                                              "position": pos(good, "table")})["result"]["items"]
labels = {i["label"] for i in items}
for want in ("Sub", "Kayles", "Two", "Lib", "N", "min", "table", "std.heaps", "plot"):
    check(want in labels, "completion has %s" % want)

# Go to definition.
def definition(position):
    return c.request("textDocument/definition", {"textDocument": {"uri": uri(main)},
                                                 "position": position})["result"]

d = definition(pos(good, "Sub(N)", 2))
check(d and d["uri"] == uri(main) and d["range"]["start"] == pos(good, "Sub(n)"),
      "definition of Sub: %r" % d)
d = definition(pos(good, "N) + Lib"))
check(d and d["range"]["start"] == pos(good, "N = 9"), "definition of N: %r" % d)
d = definition(pos(good, "a - k, b)"))
check(d and d["range"]["start"] == pos(good, "a, b)"), "definition of a parameter: %r" % d)
d = definition(pos(good, "Lib(3)"))
check(d and d["uri"] == uri(lib) and d["range"]["start"] == {"line": 1, "character": 5},
      "definition of an imported game: %r" % d)
d = definition(pos(good, "lib.game", 2))
check(d and d["uri"] == uri(lib), "definition of the import's path: %r" % d)

# The outline.
symbols = c.request("textDocument/documentSymbol", {"textDocument": {"uri": uri(main)}})["result"]
names = [s["name"] for s in symbols]
check(names[:7] == ['import lib.game', "N", "Sub", "Kayles", "Hex", "Two", "eval Sub(N) + Lib(3)"],
      "the outline: %r" % names)
two = [s for s in symbols if s["name"] == "Two"]
check(two and [m["name"] for m in two[0].get("children", [])] == ["left", "right"],
      "Two's moves: %r" % two)

# An error in an imported file is shown on the import, saying where.
other = os.path.join(WORK, "uses_broken.game")
text = 'import "broken.game"\neval Broken(3)\n'
c.notify("textDocument/didOpen", {"textDocument": {"uri": uri(other), "languageId": "gdsl",
                                                     "version": 1, "text": text}})
diags = c.diagnostics(uri(other))
check(diags and "broken.game:3:1: unexpected '}'" in diags[0]["message"]
      and diags[0]["range"]["start"] == pos(text, '"broken.game"'),
      "an imported file's error, on its import: %r" % diags)
c.notify("textDocument/didClose", {"textDocument": {"uri": uri(other)}})
check(c.diagnostics(uri(other)) == [], "closing clears the diagnostics")

# An unknown method.
r = c.request("textDocument/rename", {"textDocument": {"uri": uri(main)}})
check(r.get("error", {}).get("code") == -32601, "unknown method: %r" % r)

# A 500-line file (bench/lsp_latency.py times its changes): an error in its middle.
lines = []
for k in range(100):
    lines += ["game G%d(n) {" % k, "  take {1, %d}" % (k + 2), "}", "eval G%d(%d)" % (k, k), ""]
big = "\n".join(lines)
big_uri = uri(os.path.join(WORK, "big.game"))
c.notify("textDocument/didOpen", {"textDocument": {"uri": big_uri, "languageId": "gdsl",
                                                     "version": 1, "text": big}})
check(c.diagnostics(big_uri) == [], "the 500-line file is clean")
changed = big.replace("eval G57(57)", "eval G57(x)")
c.notify("textDocument/didChange", {"textDocument": {"uri": big_uri, "version": 2},
                                      "contentChanges": [{"text": changed}]})
diags = c.diagnostics(big_uri)
check(len(diags) == 1 and diags[0]["range"]["start"] == pos(changed, "x)"),
      "the error in the 500-line file: %r" % diags)

# Bad input is answered, never a crash: a body that is not JSON, a notification
# without its parameters, a request with bad ones.
c.process.stdin.write(b"Content-Length: 9\r\n\r\nnot json!")
c.process.stdin.flush()
m = c.read()
check(m.get("error", {}).get("code") == -32700 and m.get("id") is None, "not JSON: %r" % m)
c.notify("textDocument/didOpen", {})
r = c.request("textDocument/hover", {"textDocument": {"uri": uri(main)}})
check(r.get("error", {}).get("code") == -32602, "a hover without a position: %r" % r)
r = c.request("textDocument/hover", {"textDocument": {"uri": "file:///not/open.game"},
                                     "position": {"line": 0, "character": 0}})
check(r.get("error", {}).get("code") == -32602, "a document not open: %r" % r)

r = c.request("shutdown", None)
check(r.get("result", "missing") is None, "shutdown answers null")
c.notify("exit", None)
status = c.process.wait(timeout=10)
check(status == 0, "exit after shutdown: status %d" % status)

if failures:
    print("%d failed" % len(failures))
    sys.exit(1)
print("the language server: every check passed")
