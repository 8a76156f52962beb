"""A record as one self-contained HTML page that steps through the game, move by move.

The page needs nothing but a browser: no network, no external script or style.  Buttons and the arrow
keys (Home and End too) step through the moves; a menu shows the open table or what any one seat saw at
each step (R23: other seats' passes face down, their molodka waits unseen); the last step shows the
result.  Every picture is drawn by :mod:`goat.svg`; the cards are defined once, as symbols.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from typing import Any

from goat import svg
from goat.errors import shown
from goat.records.values import GameRecord, MatchRecord, RecordError, replay
from goat.view import view

__all__ = ["to_html"]


def _caption(record: GameRecord, step: int) -> str:
    if step == 0:
        return f"The deal: seat {record.dealer} deals, trump card {record.trump_card.symbol}"
    return f"Move {step}: {record.moves[step - 1]}"


def _result(record: GameRecord) -> str:
    result = record.result
    if result is None:
        return f"Unfinished after {len(record.moves)} moves."
    outcome = "balls (60 : 60)" if result.balls else f"team {result.winner} wins"
    forfeit = f" Team {record.forfeit} forfeited." if record.forfeit is not None else ""
    return (
        f"Points {result.points[0]} : {result.points[1]}, {outcome}; defeat-scores gained "
        f"{result.defeat[0]} : {result.defeat[1]}.{forfeit}"
    )


def _game_data(record: GameRecord, number: int) -> dict[str, Any]:
    states = replay(record)
    steps = []
    with svg.using_symbols():
        for step, state in enumerate(states):
            steps.append(
                {
                    "caption": _caption(record, step),
                    "comment": record.comment(step) or "",
                    "table": svg.table(state, standalone=False),
                    "views": [svg.view(view(state, seat), standalone=False) for seat in range(4)],
                }
            )
    players = list(record.players) if record.players else None
    return {"title": f"Game {number}", "players": players, "steps": steps, "result": _result(record)}


_STYLE = """
body { font-family: system-ui, sans-serif; background: #f4f1ea; color: #222; margin: 1.5em; }
h1 { font-size: 1.3em; margin: 0 0 .4em; }
#controls { display: flex; gap: .5em; align-items: center; flex-wrap: wrap; margin: .6em 0; }
#controls button { font-size: 1em; padding: .3em .8em; }
#caption { font-weight: bold; min-height: 1.4em; }
#board svg { max-width: 100%; height: auto; }  /* the table shrinks to a narrow window */
#comment { font-style: italic; color: #444; min-height: 1.4em; }
#result { margin-top: .6em; font-weight: bold; color: #1f6b3a; min-height: 1.4em; }
#headers { color: #555; font-size: .9em; }
"""

_SCRIPT = """
(function () {
  const data = JSON.parse(document.getElementById("goat-data").textContent);
  const board = document.getElementById("board"), caption = document.getElementById("caption");
  const comment = document.getElementById("comment");
  const status = document.getElementById("status"), result = document.getElementById("result");
  const perspective = document.getElementById("perspective"), gameMenu = document.getElementById("game");
  let game = 0, step = 0;
  function show() {
    const steps = data.games[game].steps;
    step = Math.max(0, Math.min(step, steps.length - 1));
    const at = steps[step], seat = perspective.value;
    board.innerHTML = seat === "table" ? at.table : at.views[Number(seat)];
    caption.textContent = at.caption;
    comment.textContent = at.comment;
    status.textContent = "step " + step + " of " + (steps.length - 1);
    result.textContent = step === steps.length - 1 ? data.games[game].result : "";
    document.body.dataset.step = String(step);
    document.body.dataset.game = String(game);
  }
  function go(to) { step = to; show(); }
  document.getElementById("first").onclick = () => go(0);
  document.getElementById("prev").onclick = () => go(step - 1);
  document.getElementById("next").onclick = () => go(step + 1);
  document.getElementById("last").onclick = () => go(data.games[game].steps.length - 1);
  perspective.onchange = () => { perspective.blur(); show(); };  // blurred, so the arrow keys step again
  function name() {  // the seat menu names the players of the game shown
    const players = data.games[game].players;
    for (let seat = 0; seat < 4; seat++) {
      const who = players ? " (" + players[seat] + ")" : "";
      perspective.options[seat + 1].textContent = "what seat " + seat + who + " saw";
    }
  }
  gameMenu.onchange = () => { gameMenu.blur(); game = Number(gameMenu.value); step = 0; name(); show(); };
  document.addEventListener("keydown", (event) => {
    // Alt+Left is the browser's Back, and a menu with the focus keeps its own keys.
    if (event.altKey || event.ctrlKey || event.metaKey || event.target.tagName === "SELECT") return;
    const keys = {ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: data.games[game].steps.length - 1};
    if (event.key in keys) { event.preventDefault(); go(keys[event.key]); }
  });
  name();
  show();
})();
"""


def to_html(record: GameRecord | MatchRecord | Sequence[GameRecord], *, title: str | None = None) -> str:
    """The record (a game, a match, or several games) as a standalone HTML page that replays it move by move
    (see the module documentation)."""
    if title is not None and not isinstance(title, str):
        raise TypeError(f"to_html()'s title is text or None, not {shown(title)}")
    if isinstance(record, GameRecord):
        games, headers = [record], record.headers
    elif isinstance(record, MatchRecord):
        games, headers = list(record.games), record.headers
    elif isinstance(record, Sequence) and all(isinstance(game, GameRecord) for game in record):
        if not record:
            raise RecordError("to_html() needs at least one game to show, not an empty list")
        games, headers = list(record), record[0].headers
    else:
        raise TypeError(
            f"to_html() takes a GameRecord, a MatchRecord or a list of GameRecords, not {shown(record, 60)}"
        )
    data = {"games": [_game_data(game, number) for number, game in enumerate(games, start=1)]}
    heading = title or dict(headers).get("event") or ("A game of Goat" if len(games) == 1 else "A match of Goat")
    # JSON in a script element, with "<", ">" and "&" written as JSON escapes: "</script" would end the element,
    # and "<!--" followed by "<script" would make the parser take the rest of the page for the script's text.
    payload = (
        json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
    )
    seats = "".join(f'<option value="{seat}">what seat {seat} saw</option>' for seat in range(4))
    options = "".join(f'<option value="{i}">game {i + 1}</option>' for i in range(len(games)))
    header_text = " · ".join(f"{escape(k)}: {escape(v)}" for k, v in headers)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(heading)}</title>
<style>{_STYLE}</style>
</head>
<body>
<h1>{escape(heading)}</h1>
<div id="headers">{header_text}</div>
<div id="controls">
<select id="game" aria-label="game"{" hidden" if len(games) == 1 else ""}>{options}</select>
<button id="first" title="first (Home)">|◀</button>
<button id="prev" title="back (←)">◀</button>
<button id="next" title="forward (→)">▶</button>
<button id="last" title="last (End)">▶|</button>
<select id="perspective" aria-label="show"><option value="table">the open table</option>{seats}</select>
<span id="status"></span>
</div>
<div id="caption"></div>
<div id="comment"></div>
{svg.symbols()}
<div id="board"></div>
<div id="result"></div>
<script type="application/json" id="goat-data">{payload}</script>
<script>{_SCRIPT}</script>
</body>
</html>
"""
