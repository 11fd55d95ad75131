"""Game-agnostic analysis over the game protocol: exact values, histories, trees, perft, matches."""
