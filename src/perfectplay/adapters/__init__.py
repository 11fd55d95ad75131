"""Adapters that let perfectplay's engines play inside other programs (see :mod:`.course`)."""
