"""A UCCI engine driven through a pipe, for the measuring scripts (time_to_depth.py,
move_time.py): one place for starting it, sending a line and waiting for an answer."""
import subprocess
import time


class Engine:
    """`binary` started and greeted with `ucci`; `options` are sent as `setoption` lines."""

    def __init__(self, binary, options=()):
        self.p = subprocess.Popen(
            [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.send("ucci")
        self.wait("ucciok")
        for option in options:
            self.send("setoption " + option)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        """The first line that starts with `prefix`; earlier lines are skipped."""
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit(f"the engine closed its output while we waited for {prefix}")
            if line.startswith(prefix):
                return line

    def answer_time(self, position, go):
        """Seconds from sending `go` to reading `bestmove`, after `position` is set and the
        engine has said `readyok` (so setting it up is not timed)."""
        self.send(position)
        self.send("isready")
        self.wait("readyok")
        start = time.perf_counter()
        self.send(go)
        self.wait("bestmove")
        return time.perf_counter() - start

    def quit(self):
        self.send("quit")
        self.p.wait()
