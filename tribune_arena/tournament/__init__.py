"""Tournaments between agents: scheduling, playing, storing and rating games."""
