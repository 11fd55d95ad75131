"""Games: the protocol, the kit a game declares, the registry, and one package per game.

``games/<name>/`` holds a game's rules, notation, text drawing, heuristics, compiled kernel
(and book) and its kit; ``games/common/`` the bit tricks the grid and gravity games share;
``games/registry.py`` lists the games, one line each. No game package imports another.
"""
