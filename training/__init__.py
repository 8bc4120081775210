"""Top layer: tournaments, replays, human play and (later) training, built on the agents and environments."""
