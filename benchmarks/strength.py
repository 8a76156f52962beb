"""ISMCTS strength against greedy as a function of thinking time, and greedy against random.

    python benchmarks/strength.py [--matches N] [--budgets 5 20 50 200] [--out benchmarks/results] [--plot PNG]
    python benchmarks/strength.py --plot-only      # redraw the plot from the stored strength.json, no games

Each point is a duplicate tournament (goat.arena.run_tournament) of `ismcts` with `time_ms=B`
against `greedy`, N matches (default 200), on all local cores.  Writes OUT/strength.json with the
match win rates and 95% Wilson intervals, and the plot (matplotlib, extra `goat-cards[bench]`) to
PNG, by default docs/_static/strength.png, the one copy the documentation shows.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import goat
from goat import arena

HERE = Path(__file__).resolve().parent
PLOT = HERE.parent / "docs" / "_static" / "strength.png"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--budgets", type=float, nargs="+", default=[5, 20, 50, 200])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=HERE / "results", help="where strength.json goes")
    parser.add_argument("--plot", type=Path, default=PLOT, help="where the plot goes (default: %(default)s)")
    parser.add_argument(
        "--plot-only", action="store_true", help="play no games: redraw the plot from OUT/strength.json"
    )
    args = parser.parse_args(argv)
    if args.plot_only:
        data = json.loads((args.out / "strength.json").read_text(encoding="utf-8"))
        plot(data, args.plot)
        print(f"plotted {args.out / 'strength.json'} to {args.plot}")
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    points = []
    started = time.time()
    baseline = arena.run_tournament(["greedy", "random"], matches=args.matches, seed=args.seed)
    print(baseline.table(), flush=True)
    for budget in args.budgets:
        label = f"ismcts-{budget:g}ms"
        entrant = arena.Entrant("ismcts", (("time_ms", budget),), label)
        result = arena.run_tournament([entrant, "greedy"], matches=args.matches, seed=args.seed)
        row = result[label]
        low, high = row.match_win_interval
        points.append(
            {
                "time_ms": budget,
                "matches": row.matches,
                "match_wins": row.match_wins,
                "match_win_rate": row.match_win_rate,
                "interval": [low, high],
                "game_win_rate": row.game_win_rate,
                "seconds": result.seconds,
            }
        )
        print(
            f"{label}: {row.match_wins}/{row.matches} = {row.match_win_rate:.1%} "
            f"(95% {low:.1%}–{high:.1%}) in {result.seconds:.0f} s",
            flush=True,
        )
    greedy = baseline["greedy"]
    data = {
        "machine": f"{sys.platform}, python {sys.version.split()[0]}, goat {goat.__version__}",
        "seed": args.seed,
        "greedy_vs_random": {
            "matches": greedy.matches,
            "match_wins": greedy.match_wins,
            "match_win_rate": greedy.match_win_rate,
            "interval": list(greedy.match_win_interval),
        },
        "ismcts_vs_greedy": points,
        "seconds": round(time.time() - started),
    }
    (args.out / "strength.json").write_text(json.dumps(data, indent=2) + "\n")
    plot(data, args.plot)
    return 0


def plot(data: dict, path: Path) -> None:  # type: ignore[type-arg]
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = data["ismcts_vs_greedy"]
    x = [p["time_ms"] for p in points]
    y = [100 * p["match_win_rate"] for p in points]
    low = [100 * (p["match_win_rate"] - p["interval"][0]) for p in points]
    high = [100 * (p["interval"][1] - p["match_win_rate"]) for p in points]
    figure, axes = plt.subplots(figsize=(6, 4), dpi=120)
    axes.errorbar(x, y, yerr=[low, high], marker="o", capsize=4, label="ismcts vs greedy (95% Wilson)")
    axes.axhline(50, color="grey", linewidth=0.8, linestyle=":")  # an even match
    axes.set_xscale("log")
    axes.set_xticks(x, [f"{v:g}" for v in x])
    axes.set_xlabel("thinking time per decision (ms, one core)")
    axes.set_ylabel("matches won (%)")
    axes.set_ylim(0, 100)
    axes.set_title(f"ISMCTS strength against greedy ({points[0]['matches']} matches per point)")
    axes.legend(loc="lower right")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, metadata={"Software": None})  # no matplotlib version in the file: redrawing is stable
    plt.close(figure)


if __name__ == "__main__":
    raise SystemExit(main())
