"""Helpers of the scripted tests that kill and resume runs of Grundy's game
(tests/checkpoint/kill_resume.py, tests/cli/table_file.py): checks that
collect failures, running gdsl, and the two game files they use."""
import os
import subprocess
import sys


class Checks:
    """check(cond, what) records and prints a failure; finish() exits 1 after any."""

    def __init__(self):
        self.failures = []

    def __call__(self, cond, what):
        if not cond:
            self.failures.append(what)
            print("FAIL:", what)

    def finish(self, *ok):
        if self.failures:
            sys.exit(1)
        print("ok:", *ok)


def run(gdsl, args):
    """gdsl ARGS..., its output captured as text."""
    return subprocess.run([gdsl] + args, capture_output=True, text=True, timeout=600)


def grundy_games(work):
    """Writes grundy.game (Grundy's game) and other.game (a game of the same name with
    other rules) into `work`; returns their paths."""
    game, other = os.path.join(work, "grundy.game"), os.path.join(work, "other.game")
    with open(game, "w") as f:
        f.write("game Grundy(n) { split unequal }\n")
    with open(other, "w") as f:
        f.write("game Grundy(n) { split }\n")  # same name, other rules
    return game, other
