"""Training agents: the Stable-Baselines3 and RLlib trainers, the league of opponents, imitation, checkpoints and
evaluation."""
