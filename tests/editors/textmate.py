"""The TextMate grammar of editors/vscode tokenizes every example without an
unmatched region.

    textmate.py SOURCE_DIR

A small TextMate tokenizer (match rules, begin/end regions, includes, captures;
the end pattern tried first at a tie, as TextMate does) runs the grammar over
every .game file of examples/ and stdlib/ and checks that no region (a block
comment, a string, a brace, bracket or parenthesis) is left open at the end, and
that no region closed one that was not its own. It also checks what some tokens
are (a game's name, keywords, a comment, an octal code's string, a nimber),
that every keyword of docs/reference.md is scoped as one, that an unclosed block
comment is found (so the check can fail), and that the VS Code extension's
package.json names files that exist and the grammar's scope.
"""

import glob
import json
import os
import re
import sys

SOURCE = sys.argv[1]
VSCODE = os.path.join(SOURCE, "editors", "vscode")
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


class Grammar:
    def __init__(self, path):
        with open(path) as f:
            self.doc = json.load(f)
        self.repository = self.doc.get("repository", {})
        self.cache = {}

    def resolve(self, rules):
        """Rules with includes expanded (recursively), in order."""
        out = []
        for rule in rules:
            if "include" in rule:
                name = rule["include"]
                target = self.doc if name == "$self" else self.repository[name[1:]]
                if "match" in target or "begin" in target:
                    out.append(target)
                else:
                    out.extend(self.resolve(target.get("patterns", [])))
            else:
                out.append(rule)
        return out

    def patterns(self, rule):
        key = id(rule)
        if key not in self.cache:
            rules = self.resolve(rule.get("patterns", []))
            self.cache[key] = [(r, re.compile(r["match"] if "match" in r else r["begin"]))
                               for r in rules]
        return self.cache[key]


def tokenize(grammar, text):
    """Tokens (line, start, end, scopes), and the regions left open."""
    stack = []  # (rule, compiled end)
    tokens = []
    for number, line in enumerate(text.split("\n")):
        line += "\n"
        pos = 0
        while pos < len(line):
            top = stack[-1][0] if stack else grammar.doc
            best = None  # (start, order, kind, rule, match)
            if stack:
                m = stack[-1][1].search(line, pos)
                if m:
                    best = (m.start(), -1, "end", stack[-1][0], m)
            for order, (rule, regex) in enumerate(grammar.patterns(top)):
                m = regex.search(line, pos)
                if m and (best is None or m.start() < best[0]):
                    best = (m.start(), order, "begin" if "begin" in rule else "match", rule, m)
            if best is None:
                break
            start, _, kind, rule, m = best
            scopes = [r.get("name", "") for r, _ in stack]
            if kind == "end":
                tokens.append((number, m.start(), m.end(), scopes))
                stack.pop()
            elif kind == "begin":
                stack.append((rule, re.compile(rule["end"])))
                tokens.append((number, m.start(), m.end(), scopes + [rule.get("name", "")]))
            else:
                names = [rule.get("name", "")]
                for group, capture in rule.get("captures", {}).items():
                    if m.group(int(group)) is not None:
                        tokens.append((number, m.start(int(group)), m.end(int(group)),
                                       scopes + [capture["name"]]))
                tokens.append((number, m.start(), m.end(), scopes + names))
            pos = m.end() if m.end() > pos else pos + 1
    return tokens, [r.get("name", "") for r, _ in stack]


def scope_of(tokens, text, needle, offset=0, nth=0):
    """The innermost scope at `offset` into the nth `needle` of `text`: that of
    the shortest token there."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += offset
    number = text.count("\n", 0, at)
    col = at - (text.rfind("\n", 0, at) + 1)
    found = [t for t in tokens if t[0] == number and t[1] <= col < t[2]]
    return min(found, key=lambda t: t[2] - t[1])[3][-1] if found else None


grammar = Grammar(os.path.join(VSCODE, "syntaxes", "gdsl.tmLanguage.json"))

files = sorted(glob.glob(os.path.join(SOURCE, "examples", "*.game"))
               + glob.glob(os.path.join(SOURCE, "stdlib", "*.game")))
check(len(files) >= 20, "the examples and the standard library: %d files" % len(files))
for path in files:
    with open(path) as f:
        text = f.read()
    tokens, open_regions = tokenize(grammar, text)
    check(open_regions == [], "%s: regions left open at the end: %r" % (path, open_regions))
    check(len(tokens) > 10, "%s: tokenized" % path)

with open(os.path.join(SOURCE, "examples", "tour.game")) as f:
    tour = f.read()
tokens, _ = tokenize(grammar, tour)
expect = [
    ("game Sub(n)", 5, "entity.name.type.gdsl"),
    ("  take {1, 3, 4}", 2, "keyword.other.gdsl"),
    ('octal "0.77"', 0, "keyword.other.gdsl"),
    ('octal "0.77"', 6, "string.quoted.double.gdsl"),
    ("eval Sub(4) + Sub(5)", 0, "keyword.control.gdsl"),
    ("eval Sub(4) + Sub(5)", 5, "entity.name.function.gdsl"),
    ("min(a, b)", 0, "support.function.gdsl"),
    ("== *2", 3, "constant.numeric.nimber.gdsl"),
    ("-> Wythoff", 0, "keyword.operator.gdsl"),
    ("// A short tour", 3, "comment.line.double-slash.gdsl"),
    ("table Sub(0..10)", 10, "constant.numeric.gdsl"),
]
for needle, offset, scope in expect:
    found = scope_of(tokens, tour, needle, offset)
    check(found == scope, "%r at %d is %s, not %s" % (needle, offset, scope, found))

# Every reserved keyword of the reference is scoped as a keyword.
with open(os.path.join(SOURCE, "docs", "reference.md")) as f:
    reference = f.read()
block = reference.split("### 2.3 Identifiers and keywords")[1].split("```")[1]
keywords = block.split()
check(len(keywords) == 26, "the reference's 26 keywords: %r" % keywords)
for word in keywords:
    tokens, _ = tokenize(grammar, word + "\n")
    scopes = [t[3][-1] for t in tokens if t[1] == 0 and t[2] == len(word)]
    check(any(s.startswith("keyword.") for s in scopes), "%s is a keyword: %r" % (word, scopes))

# `loopy game` and `plot G(...)` as keywords where gdsl reads them so; names elsewhere.
text = ("loopy game L(n) { move m -> L(n) }\nplot Sub(0..10)\nconst plot = 2\n"
        'game H = hex "0.B1"\nconst hex = 3\n')
tokens, _ = tokenize(grammar, text)
check(scope_of(tokens, text, "hex") == "keyword.other.gdsl", "hex before a code")
check(scope_of(tokens, text, "hex", nth=1) == "variable.other.gdsl", "hex as a name")
check(scope_of(tokens, text, "loopy") == "storage.modifier.gdsl", "loopy before game")
check(scope_of(tokens, text, "plot") == "keyword.control.gdsl", "plot starting a statement")
check(scope_of(tokens, text, "plot", nth=1) == "variable.other.gdsl", "plot as a name")

# The check can fail: an unclosed block comment and an unclosed brace are found.
for broken in ("game G(n) {\n  take 1\n/* never closed\n", "game G(n) {\n  take 1\n"):
    _, open_regions = tokenize(grammar, broken)
    check(open_regions != [], "an unclosed region is found in %r" % broken)

# The VS Code extension: its files and the grammar's scope.
with open(os.path.join(VSCODE, "package.json")) as f:
    package = json.load(f)
contributes = package["contributes"]
for g in contributes["grammars"]:
    check(os.path.exists(os.path.join(VSCODE, g["path"])), "grammar file %s" % g["path"])
    check(g["scopeName"] == grammar.doc["scopeName"], "the grammar's scope")
for language in contributes["languages"]:
    path = os.path.join(VSCODE, language["configuration"])
    check(os.path.exists(path), "language configuration %s" % path)
    with open(path) as f:
        json.load(f)
    check(".game" in language["extensions"], ".game files are gdsl")
check(os.path.exists(os.path.join(VSCODE, package["main"])), "the client, %s" % package["main"])

if failures:
    print("%d failed" % len(failures))
    sys.exit(1)
print("the TextMate grammar: %d files tokenized, every check passed" % len(files))
