"""Lockstep check of the native core against the Python engine from the command line (tests/native run the same).

    python native/tools/lockstep.py --rules base --players 4 --games 50
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "support"))

from lockstep import run_many

from tribune_env.engine.config import GameConfig


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="base", choices=("base", "expansion", "brutii"))
    parser.add_argument("--players", type=int, nargs="+", default=None)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--every", type=int, default=1, help="compare the whole state every N decisions")
    parser.add_argument("--legal-every", type=int, default=1, help="compare the legal lists every N decisions")
    args = parser.parse_args()
    counts = args.players or {"base": [2, 3, 4, 5], "expansion": [2, 3, 4, 5], "brutii": [5, 6]}[args.rules]
    for players in counts:
        config = GameConfig.for_rules(args.rules, players=players)
        start = time.perf_counter()
        totals = run_many(config, args.games, args.seed, every=args.every, legal_every=args.legal_every)
        took = time.perf_counter() - start
        print(f"{args.rules} {players}p: {totals.games} games, {totals.decisions} decisions identical ({took:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
