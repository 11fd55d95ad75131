"""A tiny Gomocup brain for the tests: plays the empty cell nearest the centre. Run with
``TABLE`` true (see gomocup_table.py) it also takes a table of ``INFO max_memory`` bytes, as
strong engines do, and answers ERROR when it cannot, or when BOARD's stones are not listed in
the order they were placed."""

import sys

size = (0, 0)
stones: dict[tuple[int, int], int] = {}
table: bytearray | None = None


def reply(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def move() -> None:
    width, height = size
    cells = [(x, y) for y in range(height) for x in range(width) if (x, y) not in stones]
    x, y = min(cells, key=lambda c: (abs(c[0] - (width - 1) / 2) + abs(c[1] - (height - 1) / 2), c))
    stones[(x, y)] = 1
    reply(f"{x},{y}")


lines = iter(sys.stdin.readline, "")
for line in lines:
    words = line.strip().replace(",", " ").split()
    if not words:
        continue
    command = words[0].upper()
    if command == "START":
        size, stones = (int(words[1]), int(words[1])), {}
        reply("OK")
    elif command == "RECTSTART":
        size, stones = (int(words[1]), int(words[2])), {}
        reply("OK")
    elif command == "BEGIN":
        move()
    elif command == "TURN":
        stones[(int(words[1]), int(words[2]))] = 2
        move()
    elif command == "BOARD":
        stones, owners = {}, []
        for row in lines:
            if row.strip().upper() == "DONE":
                break
            x, y, who = (int(v) for v in row.strip().split(","))
            stones[(x, y)] = who
            owners.append(who)
        # Like Rapfi, the TABLE brain replays BOARD as moves: the owners must alternate,
        # the opponent's stone last.
        if globals().get("TABLE") and owners != [
            2 - (len(owners) - 1 - i) % 2 for i in range(len(owners))
        ]:
            reply("ERROR the BOARD stones are not in the order they were placed")
        else:
            move()
    elif command == "END":
        break
    elif command == "INFO":
        if globals().get("TABLE") and words[1:2] == ["max_memory"]:
            try:
                table = bytearray(int(words[2]))
            except MemoryError:
                reply(f"ERROR Failed to allocate {int(words[2]) >> 10} KB for the table.")
    else:
        reply(f"UNKNOWN {command}")
