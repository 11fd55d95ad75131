"""Tic-tac-toe and every m,n,k-game: rules, notation, text, compiled kernel and kit."""
