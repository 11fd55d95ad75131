"""Game-agnostic search over the game protocol: minimax, alpha-beta, limits, results, solver."""
