"""A Gomocup brain that starts well and then never answers a move."""

import sys
import time

for line in iter(sys.stdin.readline, ""):
    command = line.strip().split(" ")[0].upper()
    if command in ("START", "RECTSTART"):
        sys.stdout.write("OK\n")
        sys.stdout.flush()
    elif command in ("BEGIN", "TURN", "BOARD"):
        time.sleep(60)
    elif command == "END":
        break
