"""Benchmarks: the engine and environments against PettingZoo peers (:mod:`.environments`); tournaments, search
and learners (:mod:`.learners`)."""
