"""Terminal colours of the board drawings (ANSI escape codes)."""

from __future__ import annotations

RED = "\x1b[31m"
YELLOW = "\x1b[33m"
BLUE = "\x1b[34m"
RESET = "\x1b[0m"
