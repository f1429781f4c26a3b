#!/usr/bin/env python3
"""Start-up of a short octal eval against the octal peers' process start
(issue 14, item 5; bench/README.md, "Start-up").

usage: bench/startup.py --gdsl PATH [--peer NAME=COMMAND ...] [--rounds R] [--runs N]
                        [--cold]

Each program runs N times per round under bench/spawn_time.c (compiled here with
cc); rounds alternate between the programs, and the median of the rounds' means is
reported. gdsl runs `eval K.game -e 'K(100000)'` with `game K = octal "0.77"`; a
peer COMMAND is given whole, e.g. --peer "ogsolve-rc2=/path/ogs 0.77 1000".
Every executable is first copied into a temporary directory (the page cache then
holds it as `cp` leaves it; bench/README.md explains why that matters); with --cold
the copies are evicted from the page cache (drop_caches, as root) before the rounds,
so they are read back from disk as after a reboot.
"""
import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gdsl", required=True)
    parser.add_argument("--peer", action="append", default=[])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--cold", action="store_true")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="gdsl-startup-")
    timer = os.path.join(work, "spawn_time")
    subprocess.run(["cc", "-O2", "-o", timer, os.path.join(HERE, "spawn_time.c")], check=True)
    with open(os.path.join(work, "K.game"), "w") as f:
        f.write('game K = octal "0.77"\n')

    def copied(path):
        target = os.path.join(work, "%d-%s" % (len(os.listdir(work)), os.path.basename(path)))
        shutil.copy2(path, target)
        return target

    programs = [("gdsl", [copied(args.gdsl), "eval", "K.game", "-e", "K(100000)"])]
    for spec in args.peer:
        name, command = spec.split("=", 1)
        words = shlex.split(command)
        programs.append((name, [copied(words[0])] + words[1:]))
    if args.cold:
        subprocess.run(["sync"], check=True)
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3\n")

    means = {name: [] for name, _ in programs}
    for _ in range(args.rounds):
        for name, command in programs:
            out = subprocess.run([timer, str(args.runs)] + command, cwd=work, check=True,
                                 capture_output=True, text=True).stdout
            means[name].append(float(out))
    print("| program | median of %d rounds of %d runs | rounds |" % (args.rounds, args.runs))
    print("| --- | ---: | --- |")
    for name, _ in programs:
        m = sorted(means[name])
        print("| %s | %.0f us | %.0f-%.0f |" % (name, statistics.median(m), m[0], m[-1]))
    shutil.rmtree(work)


main()
