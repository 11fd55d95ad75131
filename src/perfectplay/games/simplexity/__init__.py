"""The shape-and-color Connect Four ("Simplexity"): board facts, rules, notation, text,
heuristics, the compiled engine and kit."""
