"""Connect Four on any board that fits 64 bits: rules, notation, text, the compiled exact
solver, opening books and kit."""
