"""What the grid and gravity games share: bitboard layouts, compiled bit primitives and table
values, colours, column moves as JSON."""
