#!/usr/bin/env python3
"""`gdsl play` against scripted players, with answers from an independent brute force written
here (Kayles values and misère outcomes of small sums, by searching the whole game tree):

- the computer, moving first from an N-position, wins every game against random moves
  (normal and misère play);
- a player who always takes the first of the hint's winning moves wins every game from an
  N-position, so the hint's moves are winning; the hint's value and outcome are right;
- undo takes back a pair of moves; bad input gets a message and the game goes on;
- moves that reach the same position (K(1) + K(1): either K(1) -> 0) are one option;
- loopy games (a graph with cycles plus a nim heap, outcomes by a plain retrograde analysis
  here): the computer moving first wins every N position and never loses a draw against
  random moves, and the hint's outcome (P, N or D) and its winning or drawing moves are right.

usage: play.py GDSL WORKDIR
"""
import functools
import os
import random
import re
import subprocess
import sys

GDSL, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
GAME = os.path.join(WORK, "play.game")
with open(GAME, "w") as f:
    f.write('game K = octal "0.77"\ngame Nim(n) { take 1..n }\n')
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


# ---- brute force: a position is a sorted tuple of ("K", n) / ("Nim", n) components ----

def component_moves(c):
    kind, n = c
    out = []
    if kind == "Nim":
        for k in range(1, n + 1):
            out.append([("Nim", n - k)] if n - k else [])
    else:  # Kayles: knock down 1 or 2 adjacent pins, leaving a and b pins on the sides
        for k in (1, 2):
            for a in range(0, n - k + 1):
                b = n - k - a
                out.append([("K", x) for x in (a, b) if x > 0])
    return out


def successors(pos):
    out = []
    for i, c in enumerate(pos):
        rest = pos[:i] + pos[i + 1:]
        for m in component_moves(c):
            out.append(tuple(sorted(rest + tuple(m))))
    return out


@functools.lru_cache(maxsize=None)
def grundy(pos):
    if len(pos) != 1:
        x = 0
        for c in pos:
            x ^= grundy((c,))
        return x
    seen = {grundy(s) for s in successors(pos)}
    g = 0
    while g in seen:
        g += 1
    return g


@functools.lru_cache(maxsize=None)
def misere_wins(pos):
    nexts = successors(pos)
    if not nexts:
        return True  # no move: the opponent moved last and lost
    return any(not misere_wins(s) for s in nexts)


def parse(text):
    """The sum shown on a Position line, as a brute-force position."""
    if text.strip() == "nothing left":
        return ()
    return tuple(sorted((name, int(n)) for name, n in re.findall(r"(\w+)\((\d+)\)", text)))


def wins(pos, misere):
    return misere_wins(pos) if misere else grundy(pos) != 0


class Game:
    def __init__(self, position, *flags, game=GAME):
        self.proc = subprocess.Popen([GDSL, "play", game, position, *flags], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=0)
        self.transcript = ""

    def until_prompt(self):
        """Output up to the next prompt; None when the game is over."""
        chunk = ""
        while not chunk.endswith("your move> "):
            c = self.proc.stdout.read(1)
            if not c:
                self.transcript += chunk
                return None
            chunk += c
        self.transcript += chunk
        return chunk

    def say(self, line):
        self.transcript += line + "\n"
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def finish(self):
        self.proc.stdin.close()
        self.proc.wait()
        return self.transcript


def last_position(screen):
    found = re.findall(r"Position: (.*)\n", screen)
    return parse(found[-1]) if found else None


def move_count(screen):
    return len(re.findall(r"^\s+\d+\. ", screen.split("Position:")[-1], re.M))


def play_out(position, flags, choose, game=GAME):
    g = Game(position, *flags, game=game)
    while True:
        screen = g.until_prompt()
        if screen is None:
            break
        g.say(choose(g, screen))
    return g.finish()


rng = random.Random(7)
positions = ["K(5) + K(3)", "K(7)", "K(4) + K(4) + K(2)", "K(6) + Nim(3)", "K(9) + K(1)",
             "Nim(3) + Nim(5) + Nim(6)", "K(8) + K(5)", "Nim(1) + Nim(1) + Nim(1)", "K(10)"]

for misere in (False, True):
    flags = ["--misere"] if misere else []
    play = "misère" if misere else "normal"
    for text in positions:
        start = parse(text)
        # The computer moves first from an N-position: it must win against random moves.
        if wins(start, misere):
            for seed in range(3):
                out = play_out(text, flags + ["--computer-first", "--seed", str(seed)],
                               lambda g, s: str(rng.randint(1, move_count(s))))
                check(out.rstrip().endswith("the computer wins."),
                      "%s %s: the computer moving first wins: %s" % (play, text, out[-300:]))
        # The player moves first and follows the hint: wins exactly from N-positions.
        def follow_hint(g, screen):
            if "Position:" in screen:
                # One option per position the moves reach: K(1) + K(1) has one, not two.
                pos = last_position(screen)
                check(move_count(screen) == len(set(successors(pos))),
                      "%s: one option per resulting position from %s: %r" % (text, pos, screen))
            if screen.endswith("Winning moves: ") or "Position:" in screen:
                g.say("hint")
                hint = g.until_prompt() or ""
                m = re.search(r"Winning moves: ([\d, ]+)", hint)
                pos = last_position(screen)
                outcome = "N" if wins(pos, misere) else "P"
                check(re.search(r": %s, the player to move" % outcome, hint) is not None,
                      "%s %s: the hint's outcome for %s is %s: %r" % (play, text, pos, outcome, hint))
                if not misere:
                    value = grundy(pos)
                    shown = "0" if value == 0 else "*%d" % value
                    check(("Value %s:" % shown) in hint, "%s: the hint's value %s: %r" % (text, shown, hint))
                if m:
                    return m.group(1).split(",")[0].strip()
            return "1"
        out = play_out(text, flags + ["--seed", "1"], follow_hint)
        if wins(start, misere):
            check(out.rstrip().endswith("you win."),
                  "%s %s: following the hint wins: %s" % (play, text, out[-300:]))

# ---- loopy games: a graph with cycles, plus a nim heap; outcomes by retrograde analysis ----

GRAPH = [[1], [0, 2, 5], [3], [1, 4], [], [6], [5, 7], [4, 8], [7], [9, 2], [11], [10, 0]]
LOOPY = os.path.join(WORK, "loopy.game")
with open(LOOPY, "w") as f:
    f.write("const E = [%s]\n" % ", ".join("[%s]" % ", ".join(map(str, m)) for m in GRAPH))
    f.write("loopy game R(v) {\n  move go(w in E[v]) -> R(w)\n}\ngame Nim(n) { take 1..n }\n")
HEAP = 2


def loopy_outcomes():
    """'P', 'N' or 'D' for (v, a): R(v) + Nim(a), by plain retrograde analysis."""
    states = [(v, a) for v in range(len(GRAPH)) for a in range(HEAP + 1)]
    moves = {s: [(w, s[1]) for w in GRAPH[s[0]]] + [(s[0], b) for b in range(s[1])]
             for s in states}
    back = {s: [] for s in states}
    for s in states:
        for t in moves[s]:
            back[t].append(s)
    out = {s: "D" for s in states}
    left = {s: len(moves[s]) for s in states}
    queue = [s for s in states if not moves[s]]
    for s in queue:
        out[s] = "P"
    while queue:
        t = queue.pop()
        for s in back[t]:
            if out[s] != "D":
                continue
            if out[t] == "P":
                out[s] = "N"
                queue.append(s)
            else:
                left[s] -= 1
                if left[s] == 0:
                    out[s] = "P"
                    queue.append(s)
    return out


LOOPY_OUTCOME = loopy_outcomes()


def loopy_parse(screen):
    found = re.findall(r"Position: (.*)\n", screen)
    if not found:
        return None
    text = found[-1]
    v = re.search(r"R\((\d+)\)", text)
    a = re.search(r"Nim\((\d+)\)", text)
    return (int(v.group(1)) if v else None, int(a.group(1)) if a else 0)


for v in range(len(GRAPH)):
    for a in range(HEAP + 1):
        text = "R(%d) + Nim(%d)" % (v, a)
        outcome = LOOPY_OUTCOME[(v, a)]
        # The computer moving first wins from N (play must end: it moves where the
        # counter is least), and never loses a draw, against random moves.
        if outcome in "ND":
            for seed in range(2):
                out = play_out(text, ["--computer-first", "--seed", str(seed)],
                               lambda g, s: str(rng.randint(1, max(move_count(s), 1))), LOOPY)
                if outcome == "N":
                    check(out.rstrip().endswith("the computer wins."),
                          "loopy %s: the computer moving first wins: %s" % (text, out[-300:]))
                else:
                    check(not out.rstrip().endswith("you win."),
                          "loopy %s: the computer keeps the draw: %s" % (text, out[-300:]))

        # The player asks for a hint at every position: its outcome is right, and
        # following its winning (or drawing) moves wins from N and never loses a draw.
        def follow_loopy_hint(g, screen):
            if "Position:" not in screen:
                return "1"
            pos = loopy_parse(screen)
            g.say("hint")
            hint = g.until_prompt() or ""
            if pos[0] is not None:
                want = LOOPY_OUTCOME[pos]
                check(re.search(r": %s, " % want, hint) is not None,
                      "loopy %s: the hint's outcome for %s is %s: %r" % (text, pos, want, hint))
            m = re.search(r"(Winning|Drawing) moves: ([\d, ]+)", hint)
            return m.group(2).split(",")[0].strip() if m else "1"
        out = play_out(text, ["--seed", "1"], follow_loopy_hint, LOOPY)
        if outcome == "N":
            check(out.rstrip().endswith("you win."),
                  "loopy %s: following the hint wins: %s" % (text, out[-300:]))
        if outcome == "D":
            check(not out.rstrip().endswith("the computer wins."),
                  "loopy %s: following the hint keeps the draw: %s" % (text, out[-300:]))

# Undo takes back the player's move and the computer's reply; bad input is explained.
g = Game("K(6) + K(2)", "--seed", "3")
screen = g.until_prompt()
g.say("undo")
check("Nothing to undo." in (g.until_prompt() or ""), "nothing to undo at the start")
g.say("42")
check("Type a number from 1 to" in (g.until_prompt() or ""), "a number out of range is explained")
g.say("2")
after = g.until_prompt() or ""
check("You: " in after and "Computer: " in after, "a move and the reply")
check(last_position(after) != parse("K(6) + K(2)"), "the position changed")
g.say("undo")
back = g.until_prompt() or ""
check("Took back" in back and last_position(back) == parse("K(6) + K(2)"),
      "undo restores the position: %r" % back)
g.say("quit")
g.finish()
check(g.proc.returncode == 0, "quit leaves with status 0")

bad = subprocess.run([GDSL, "play", GAME, "Nope(3)"], capture_output=True, text=True)
check(bad.returncode == 1 and "unknown game 'Nope'" in bad.stderr, "an unknown game is an error")
usage = subprocess.run([GDSL, "play", GAME], capture_output=True, text=True)
check(usage.returncode == 2, "a missing position is a usage error")

if failures:
    sys.exit(1)
print("ok")
