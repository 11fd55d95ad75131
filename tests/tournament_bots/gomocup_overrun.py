"""A Gomocup brain that plays its first two moves at once and from its third move on thinks
three times the turn time the manager gave it (``INFO timeout_turn``) before answering."""

import sys
import time

size, stones, turn_ms, moves = (0, 0), {}, 1000, 0


def reply(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def move():
    global moves
    moves += 1
    if moves >= 3:
        time.sleep(3 * turn_ms / 1000)
    width, height = size
    cells = [(x, y) for y in range(height) for x in range(width) if (x, y) not in stones]
    x, y = min(cells, key=lambda c: (abs(c[0] - width // 2) + abs(c[1] - height // 2), c))
    stones[(x, y)] = 1
    reply(f"{x},{y}")


lines = iter(sys.stdin.readline, "")
for line in lines:
    words = line.strip().replace(",", " ").split()
    command = words[0].upper() if words else ""
    if command in ("START", "RECTSTART"):
        size = (int(words[1]), int(words[-1]))
        reply("OK")
    elif command == "INFO" and len(words) == 3 and words[1] == "timeout_turn":
        turn_ms = int(words[2])
    elif command == "BEGIN":
        move()
    elif command == "TURN":
        stones[(int(words[1]), int(words[2]))] = 2
        move()
    elif command == "BOARD":
        stones = {}
        for row in lines:
            if row.strip().upper() == "DONE":
                break
            x, y, who = (int(v) for v in row.strip().split(","))
            stones[(x, y)] = who
        move()
    elif command == "END":
        break
