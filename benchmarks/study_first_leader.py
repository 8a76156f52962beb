"""Does it pay to lead first?  The first leader's team in ten million uniformly random games, and what a molodka
dealt to a team is worth.

    python benchmarks/study_first_leader.py [--games 10000000] [--chunk 1000000] [--seed 2026]
    python benchmarks/study_first_leader.py --plot-only   # redraw the plot from the stored JSON, no games

Plays the games with goat.batch.random_playouts, ``--chunk`` games per call: chunk ``c`` uses seed
``SEED + c``, so game ``j`` of it is ``goat.new_game(seed=(SEED + c) * 2**32 + j, dealer=j % 4)`` and every
seat leads first equally often (R9).  Every seat picks uniformly among its legal actions, molodka
declarations and waits included (R14).  Writes benchmarks/results/study_first_leader.json (counts, rates with
95% Wilson intervals, the time taken) and the plot docs/_static/batch_first_leader.png (matplotlib, extra
``goat-cards[bench]``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import goat
from goat.batch import random_playouts

HERE = Path(__file__).resolve().parent
OUT = HERE / "results" / "study_first_leader.json"
PLOT = HERE.parent / "docs" / "_static" / "batch_first_leader.png"


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if not trials:
        return (0.0, 1.0)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return (centre - half, centre + half)


def rate(successes: int, trials: int) -> dict[str, Any]:
    low, high = wilson(successes, trials)
    return {"count": successes, "of": trials, "rate": successes / trials if trials else None, "interval": [low, high]}


def study(games: int, chunk: int, seed: int) -> dict[str, Any]:
    points = np.zeros(121, dtype=np.int64)  # the first leader's team's points
    defeat = np.zeros((2, 7), dtype=np.int64)  # defeat-scores gained: [first leader's team, other team][score]
    wins = losses = balls = decisions = declared = 0
    # molodka dealt: (first leader's team has one, other team has one) -> (games, first leader's team wins)
    molodka = np.zeros((2, 2, 2), dtype=np.int64)
    cpu, wall = time.process_time(), time.perf_counter()
    done = 0
    part = 0
    while done < games:
        size = min(chunk, games - done)
        found = random_playouts(size, seed=seed + part)
        team = (found.first_leader % 2).astype(np.intp)
        rows = np.arange(size)
        mine = found.points[rows, team].astype(np.intp)
        points += np.bincount(mine, minlength=121)
        defeat[0] += np.bincount(found.defeat[rows, team], minlength=7)
        defeat[1] += np.bincount(found.defeat[rows, 1 - team], minlength=7)
        won = found.winner == team
        wins += int(won.sum())
        balls += int((found.winner < 0).sum())
        losses += int(((found.winner >= 0) & ~won).sum())
        decisions += int(found.decisions.sum())
        declared += int(found.molodkas.sum())
        have = found.molodka_dealt[rows, team].astype(np.intp)
        other = found.molodka_dealt[rows, 1 - team].astype(np.intp)
        np.add.at(molodka, (have, other, 0), 1)
        np.add.at(molodka, (have, other, 1), won)
        done += size
        part += 1
        print(f"  {done:>11,} games, {time.perf_counter() - wall:7.1f} s", file=sys.stderr, flush=True)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    mean = float((np.arange(121) * points).sum() / games)
    return {
        "games": games,
        "seed": seed,
        "chunk": chunk,
        "seconds_wall": round(wall, 1),
        "seconds_cpu": round(cpu, 1),
        "decisions": decisions,
        "molodkas_declared": declared,
        "first_leader_team": {
            "wins": rate(wins, games),
            "losses": rate(losses, games),
            "balls": rate(balls, games),
            "mean_points": mean,
            "points_histogram": points.tolist(),
            "defeat_gained_histogram": defeat[0].tolist(),
        },
        "other_team": {"defeat_gained_histogram": defeat[1].tolist()},
        "molodka_dealt": {
            label: rate(int(molodka[h, o, 1]), int(molodka[h, o, 0]))
            for label, (h, o) in {
                "neither team": (0, 0),
                "first leader's team only": (1, 0),
                "other team only": (0, 1),
                "both teams": (1, 1),
            }.items()
        },
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "goat": goat.__version__,
    }


def plot(data: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = data["games"]
    leader = data["first_leader_team"]
    counts = np.array(leader["points_histogram"]) / games
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8), gridspec_kw={"width_ratios": [3, 2]})
    x = np.arange(121)
    colours = np.where(x >= 61, "#2b7bba", np.where(x == 60, "#999999", "#d0573b"))
    left.bar(x, counts * 100, width=1.0, color=colours)
    left.set_xlabel("card points of the first leader's team")
    left.set_ylabel("games (%)")
    won = leader["wins"]["rate"] * 100
    lost = leader["losses"]["rate"] * 100
    left.set_title(f"{games / 1e6:g} million random games: first leader's team wins {won:.2f}%, loses {lost:.2f}%")
    left.axvline(60.5, color="black", linewidth=0.6)
    left.set_xlim(-1, 121)
    left.title.set_fontsize(9)
    labels, rates, errors = [], [], []
    for label, row in data["molodka_dealt"].items():
        labels.append(label.replace(" only", "\nonly").replace("'s team", "'s\nteam"))
        rates.append(row["rate"] * 100)
        errors.append([(row["rate"] - row["interval"][0]) * 100, (row["interval"][1] - row["rate"]) * 100])
    right.bar(range(len(rates)), rates, color="#2b7bba", yerr=np.array(errors).T, capsize=3)
    right.set_xticks(range(len(rates)), labels, fontsize=7)
    right.set_ylabel("first leader's team wins (%)")
    right.set_title("by who was dealt a molodka (95% intervals)", fontsize=9)
    right.axhline(won, color="black", linewidth=0.6)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000_000)
    parser.add_argument("--chunk", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--plot", type=Path, default=PLOT)
    parser.add_argument("--plot-only", action="store_true", help="play no games: redraw the plot from --out")
    args = parser.parse_args(argv)
    if not args.plot_only:
        data = study(args.games, args.chunk, args.seed)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    data = json.loads(args.out.read_text(encoding="utf-8"))
    plot(data, args.plot)
    leader = data["first_leader_team"]
    print(f"{data['games']:,} games in {data['seconds_wall']} s (cpu {data['seconds_cpu']} s)")
    for key in ("wins", "losses", "balls"):
        row = leader[key]
        print(f"first leader's team {key:7s} {row['rate']:.4%}  [{row['interval'][0]:.4%}, {row['interval'][1]:.4%}]")
    print(f"first leader's team mean points {leader['mean_points']:.2f}")
    for label, row in data["molodka_dealt"].items():
        print(f"molodka dealt to {label:26s} {row['of']:>10,} games, first leader's team wins {row['rate']:.2%}")
    print(f"wrote {args.out} and {args.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
