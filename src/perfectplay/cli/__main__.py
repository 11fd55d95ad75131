"""``python -m perfectplay.cli``: the ``perfectplay`` script without its installed wrapper."""

from __future__ import annotations

import sys

from perfectplay.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
