"""A bad bot of the line protocol: answers every position with garbage."""

import sys

for line in iter(sys.stdin.readline, ""):
    if line.startswith("position"):
        sys.stdout.write("\x00\x01 not a move at all\n")
        sys.stdout.flush()
