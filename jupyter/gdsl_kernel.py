"""The Jupyter kernel for gdsl (docs/jupyter.md).

A wrapper kernel on ipykernel's Kernel class: it starts one `gdsl kernel`
process and speaks its JSON Lines protocol (docs/jupyter.md, "The protocol").
Games defined in one cell are known in the next and the memo is kept, as in
the REPL. Each result comes back as a MIME bundle (text, an HTML table, an SVG
plot) and is shown as display data; errors are printed as the command line
prints them, the cell named `In [N]`. An interrupt stops the computation and
keeps the memo.

`gdsl jupyter install` writes this file beside kernel.json, which runs it as
    python3 gdsl_kernel.py --gdsl /path/to/gdsl -f {connection_file}
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys

from ipykernel.kernelapp import IPKernelApp
from ipykernel.kernelbase import Kernel

PROTOCOL = 1  # the protocol version this kernel speaks (cli/Kernel.h)
WORD = re.compile(r"[A-Za-z0-9_.:]+$")
WORD_AFTER = re.compile(r"^[A-Za-z0-9_]*")


class GdslProcess:
    """One `gdsl kernel` process: requests out, messages in, a line each."""

    def __init__(self, gdsl, args):
        # A session of its own: Jupyter's interrupt (SIGINT to this kernel's
        # process group) reaches gdsl only as this kernel forwards it, once.
        self.process = subprocess.Popen(
            [gdsl, "kernel", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            start_new_session=True,
        )
        self.pending = b""
        self.next_id = 0
        ready = self.read()
        if ready is None or ready.get("kind") != "ready":
            raise RuntimeError("gdsl kernel did not start: %r" % (ready,))
        if ready.get("protocol") != PROTOCOL:
            raise RuntimeError(
                "gdsl speaks protocol %s, this kernel %s: install the kernel again "
                "with `gdsl jupyter install`" % (ready.get("protocol"), PROTOCOL)
            )
        self.version = ready.get("gdsl", "")

    def alive(self):
        return self.process.poll() is None

    def send(self, op, **fields):
        self.next_id += 1
        fields.update(op=op, id=self.next_id)
        self.process.stdin.write((json.dumps(fields) + "\n").encode())
        self.process.stdin.flush()
        return self.next_id

    def read(self):
        """The next message, or None when gdsl has ended. A KeyboardInterrupt
        raised while waiting loses nothing: the bytes read stay pending."""
        while b"\n" not in self.pending:
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return json.loads(line)

    def interrupt(self):
        if self.alive():
            self.process.send_signal(signal.SIGINT)

    def close(self):
        if self.alive():
            try:
                self.send("shutdown")
                self.process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()


class GdslKernel(Kernel):
    implementation = "gdsl"
    implementation_version = "1"
    language = "gdsl"
    language_version = "1"
    language_info = {
        "name": "gdsl",
        "mimetype": "text/x-gdsl",
        "file_extension": ".game",
        "codemirror_mode": "text",
    }
    banner = "gdsl: impartial games, their values and outcomes"
    gdsl_path = "gdsl"
    gdsl_args = []

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.gdsl = GdslProcess(self.gdsl_path, self.gdsl_args)
        self.banner = "gdsl %s" % self.gdsl.version

    def _restart(self, why):
        self._stream("stderr", why)
        self.gdsl = GdslProcess(self.gdsl_path, self.gdsl_args)

    def _stream(self, name, text):
        self.send_response(self.iopub_socket, "stream", {"name": name, "text": text})

    def _answer(self, op, **fields):
        """Sends one request and returns its answer (not for execute)."""
        request = self.gdsl.send(op, **fields)
        while True:
            message = self.gdsl.read()
            if message is None:
                self._restart("gdsl ended; a new session was started\n")
                return {}
            if message.get("id") == request:
                return message

    def do_execute(
        self, code, silent, store_history=True, user_expressions=None, allow_stdin=False
    ):
        if not self.gdsl.alive():
            self._restart("gdsl had ended; a new session was started\n")
        request = self.gdsl.send(
            "execute", code=code, cell="In [%d]" % self.execution_count
        )
        status = "ok"
        interrupted = False
        while True:
            try:
                message = self.gdsl.read()
            except KeyboardInterrupt:
                # Once per interrupt: a second one while gdsl still computes
                # ends it (a loop that does not poll), and it is restarted.
                self.gdsl.interrupt()
                interrupted = True
                continue
            if message is None:
                self._restart(
                    "gdsl stopped (it did not respond to the interrupt); a new session "
                    "was started: run the cells that define your games again\n"
                )
                status = "error"
                break
            if message.get("id") != request:
                continue
            kind = message.get("kind")
            if kind == "display" and not silent:
                self.send_response(
                    self.iopub_socket,
                    "display_data",
                    {"data": message["data"], "metadata": {}},
                )
            elif kind == "stream" and not silent:
                self._stream(message["name"], message["text"])
            elif kind == "done":
                status = message.get("status", "ok")
                break
        if status == "ok":
            return {
                "status": "ok",
                "execution_count": self.execution_count,
                "payload": [],
                "user_expressions": {},
            }
        name = "Interrupted" if status == "interrupted" or interrupted else "GdslError"
        error = {
            "ename": name,
            "evalue": "the computation was stopped; values computed so far are kept"
            if name == "Interrupted"
            else "the cell has errors (above)",
            "traceback": [],
        }
        # The error as an output too, so that a notebook shows the cell failed.
        if not silent:
            self.send_response(self.iopub_socket, "error", error)
        return {"status": "error", "execution_count": self.execution_count, **error}

    def _word_at(self, code, cursor_pos):
        before = WORD.search(code[:cursor_pos])
        after = WORD_AFTER.match(code[cursor_pos:])
        start = before.start() if before else cursor_pos
        return code[start:cursor_pos], start, cursor_pos + (after.end() if after else 0)

    def do_complete(self, code, cursor_pos):
        word, start, _ = self._word_at(code, cursor_pos)
        answer = self._answer("complete", word=word)
        return {
            "status": "ok",
            "matches": answer.get("matches", []),
            "cursor_start": start,
            "cursor_end": cursor_pos,
            "metadata": {},
        }

    def do_inspect(self, code, cursor_pos, detail_level=0, omit_sections=()):
        _, start, end = self._word_at(code, cursor_pos)
        answer = self._answer("inspect", word=code[start:end])
        found = bool(answer.get("found"))
        return {
            "status": "ok",
            "found": found,
            "data": {"text/plain": answer.get("text", "")} if found else {},
            "metadata": {},
        }

    def do_is_complete(self, code):
        answer = self._answer("is_complete", code=code)
        return {"status": answer.get("status", "unknown"), "indent": ""}

    def do_shutdown(self, restart):
        self.gdsl.close()
        return {"status": "ok", "restart": restart}


def main():
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--gdsl", default="gdsl")
    parser.add_argument("--gdsl-arg", action="append", default=[])
    known, rest = parser.parse_known_args()
    GdslKernel.gdsl_path = known.gdsl
    GdslKernel.gdsl_args = known.gdsl_arg
    IPKernelApp.launch_instance(argv=rest, kernel_class=GdslKernel)


if __name__ == "__main__":
    main()
