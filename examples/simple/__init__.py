"""Plain perfectplay games: each a class with start, moves, play and result, nothing else
required (see ``docs/adding-a-game.md``). Installed, ``pip install ./examples/simple``, they
are the games ``simplenim``, ``simpletictactoe`` and ``dropthree`` of every perfectplay tool
(the entry points of ``pyproject.toml`` name the classes)."""
