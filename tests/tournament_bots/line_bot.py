"""A bot of perfectplay's line protocol for Connect Four: plays the lowest-numbered column
that is not full (it counts the moves of the position it is sent)."""

import sys

width, height = 7, 6
for line in iter(sys.stdin.readline, ""):
    words = line.split(" ", 1)
    if words[0] == "game":
        width, height = (int(v) for v in line.split()[2].split("x"))
    elif words[0].strip() == "position":
        text = words[1].strip() if len(words) > 1 else ""
        played = [int(c) for c in text] if "," not in text else [int(c) for c in text.split(",")]
        column = next(c for c in range(1, width + 1) if played.count(c) < height)
        sys.stdout.write(f"{column}\n")
        sys.stdout.flush()
    elif words[0].strip() == "end":
        break
