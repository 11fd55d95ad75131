"""Deliberately simple reference implementations that the real games are checked against."""
