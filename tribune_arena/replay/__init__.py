"""Recorded games step by step: as text (:mod:`.text`) and as one HTML page (:mod:`.html`)."""
