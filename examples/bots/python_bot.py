#!/usr/bin/env python3
"""A complete Goat bot in plain Python (standard library only): a template to copy for your own bot.

It speaks goat's bot protocol, version 1, and does not import goat, so it runs anywhere Python 3.11+ does:

    goat match 'exec:python3 examples/bots/python_bot.py' greedy --seed 3

The referee starts this program as a child process and talks to it in JSON lines, much as a chess GUI
talks to a UCI engine:

* The referee writes one JSON object per line (UTF-8, ending in "\\n") to our standard input.
* We answer EVERY message except "quit" with exactly ONE JSON line on standard output, in order.
* Nothing else may ever appear on standard output: logs go to standard error.

    referee -> bot                                                  bot -> referee
    {"type":"hello","protocol":1,"seat":0,"seed":7,"time_limit":10}  {"type":"hello","protocol":1,"name":"..."}
    {"type":"start_game","game":1,"view":VIEW}                       {"type":"ok"}
    {"type":"choose","game":1,"view":VIEW,"legal":["0 lead 6C",...]} {"type":"move","move":"0 lead 6C"}
    {"type":"end_game","game":1,"view":VIEW,"result":RESULT}         {"type":"ok"}
    {"type":"quit"}                                                  (no reply: exit with status 0)

Any reply may instead be {"type":"error","message":"..."}; the referee counts it as this bot's fault.
The documentation's "Bot protocol" page has the full contract; goat/arena/protocol.py is the reference.

The strategy here is a small rule of thumb (see choose_move); it is deterministic: the same messages
always get the same answers, so it uses no random numbers (a bot that does should seed them with the
"seed" of hello, so that a match can be replayed).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

NAME = "python-example-bot"
PROTOCOL = 1  # the protocol version this bot speaks

# --- cards ------------------------------------------------------------------------------------
#
# A card is text: the rank then the suit letter, "6C", "10H", "QS", "AD".  Suits: C D H S.
# Ranks from lowest to highest (the order in which one card beats another of its suit):
RANK_ORDER = ["6", "7", "8", "9", "J", "Q", "K", "10", "A"]
# Card points; the 36 cards hold 120 in all, and a team needs 61 to win a game.
POINTS = {"6": 0, "7": 0, "8": 0, "9": 0, "J": 2, "Q": 3, "K": 4, "10": 10, "A": 11}


def rank(card: str) -> str:
    return card[:-1]  # "10H" -> "10"


def suit(card: str) -> str:
    return card[-1]  # "10H" -> "H"


def points(cards: list[str]) -> int:
    return sum(POINTS[rank(card)] for card in cards)


# --- moves ------------------------------------------------------------------------------------
#
# A move is text too: "<seat> <kind> <cards...>", for example "1 lead 10H QH", "2 beat 7S",
# "3 pass 6C 9D", "0 molodka 6S 7S 8S 9S", "2 wait".  The kinds:
#   lead     open a trick with one or more cards of one suit
#   beat     answer face up with as many cards, beating the top play (trumps beat any non-trump)
#   pass     answer face down with as many cards, any cards: they go to whoever wins the trick
#   molodka  declare four cards of one suit, out of turn: it becomes the lead of the trick
#   wait     "not now", when the referee asks a molodka holder whether to declare
# The referee lists the legal moves in "legal"; the reply copies one of them exactly.  The plays in
# the view are written the same way, except that another seat's face-down pass shows "??" for each
# card: "2 pass ?? ??".


def move_seat(move: str) -> int:
    return int(move.split()[0])


def move_kind(move: str) -> str:
    return move.split()[1]


def move_cards(move: str) -> list[str]:
    return move.split()[2:]


def lead_key(move: str, trump: str) -> tuple[int, int, int]:
    """How much a lead costs us: leading a trump first, then card points, then rank (lower is cheaper)."""
    cards = move_cards(move)
    trumps = sum(suit(card) == trump for card in cards)
    return (trumps, points(cards), sum(RANK_ORDER.index(rank(card)) for card in cards))


def answer_key(move: str, trump: str) -> tuple[int, int, int]:
    """How much a beat or a pass costs us: card points first, then trumps used, then rank (lower is cheaper)."""
    cards = move_cards(move)
    trumps = sum(suit(card) == trump for card in cards)
    return (points(cards), trumps, sum(RANK_ORDER.index(rank(card)) for card in cards))


def gift_key(move: str, trump: str) -> tuple[int, int]:
    """How good a pass is as a gift to the partner's trick: no trumps first, then the most points (lower is better)."""
    cards = move_cards(move)
    return (sum(suit(card) == trump for card in cards), -points(cards))


def cheapest(moves: list[str], key: Callable[[str, str], tuple[int, ...]], trump: str) -> str:
    """The move with the lowest key; on a tie the one listed first (min() keeps the first), so play is deterministic."""
    return min(moves, key=lambda move: key(move, trump))


# --- the strategy ------------------------------------------------------------------------------


def choose_move(view: dict[str, Any], legal: list[str]) -> str:
    """Pick one of the legal moves (returned exactly as the referee wrote it).

    The VIEW is what this seat knows: "seat", "hand", "trump" (suit letter), "trump_card", "table" (the
    plays of the trick so far, each written as a move is: "1 lead 10H", and another seat's face-down pass
    shows "??" for each card, "2 pass ??"), "tricks", "history", "hand_sizes", "stock_size", "defeat", ...
    """
    trump = view["trump"]
    me = view["seat"]
    by_kind: dict[str, list[str]] = {}
    for move in legal:
        by_kind.setdefault(move_kind(move), []).append(move)

    # 1. A molodka (four cards of one suit) is a strong lead: declare it whenever it is offered.
    if "molodka" in by_kind:
        return by_kind["molodka"][0]

    # 2. Leading: lead one card, the least valuable one, keeping trumps for later.
    if "lead" in by_kind:
        singles = [move for move in by_kind["lead"] if len(move_cards(move)) == 1]
        return cheapest(singles or by_kind["lead"], lead_key, trump)

    # 3. Answering a lead.  The top play is the last lead, beat or molodka on the table (a pass never is);
    #    whoever owns it when all four have played takes the trick, with every card in it.
    if "beat" in by_kind or "pass" in by_kind:
        table = view["table"]
        top = [play for play in table if move_kind(play) != "pass"][-1]
        partner_on_top = move_seat(top) % 2 == me % 2  # team = seat % 2: seats 0 and 2 against 1 and 3
        last_to_play = len(table) == 3
        beats = by_kind.get("beat", [])
        passes = by_kind.get("pass", [])
        if partner_on_top and last_to_play and passes:
            # The trick is ours whatever we do: give the partner our most valuable cards (but no trumps).
            return cheapest(passes, gift_key, trump)
        if not partner_on_top and beats:
            # An opponent holds the trick: take it as cheaply as we can.  The cards we beat with are not
            # lost: they come back in the trick.  (Beating only when the table is worth 10 points or more
            # loses nearly every match against goat's greedy bot: it leads worthless cards and keeps the lead.)
            return cheapest(beats, answer_key, trump)
        if passes:
            # Our partner holds the trick but someone may still beat it, or we cannot beat: throw the
            # least valuable cards, since passed cards go to whoever wins the trick.
            return cheapest(passes, answer_key, trump)
        return cheapest(beats, answer_key, trump)

    # 4. Only "wait" is left (a molodka holder being asked; we declared above when we could).
    return legal[0]


# --- the protocol loop ---------------------------------------------------------------------------


def log(text: str) -> None:
    """Write to standard error, which the referee keeps apart (and shows when the bot faults)."""
    print(f"[{NAME}] {text}", file=sys.stderr, flush=True)


class Bot:
    """The bot's state across messages: its seat, and what it has learnt about the match so far."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.seed: int | None = None
        self.games = 0  # games started
        self.won = 0  # games our team won
        self.defeat = [0, 0]  # defeat-scores by team; a team with 12 is the goat

    def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        """The one reply to a message (quit never gets here)."""
        kind = message.get("type")
        if kind == "hello":
            if message.get("protocol") != PROTOCOL:
                wanted = message.get("protocol")
                return {"type": "error", "message": f"this bot speaks protocol {PROTOCOL}, not {wanted!r}"}
            self.seat = message["seat"]
            self.seed = message.get("seed")  # seed a random generator with this, if the bot used one
            log(f"seat {self.seat}, seed {self.seed}, {message.get('time_limit')} s per reply")
            return {"type": "hello", "protocol": PROTOCOL, "name": NAME}  # extra fields would be allowed
        if kind == "start_game":
            self.games += 1
            return {"type": "ok"}
        if kind == "choose":
            legal = message["legal"]
            if not legal:
                return {"type": "error", "message": "choose with no legal moves"}
            move = choose_move(message["view"], legal)
            return {"type": "move", "move": move}
        if kind == "end_game":
            result = message["result"]  # {"points", "tricks", "defeat", "balls", "winner", "last_trick_winner", ...}
            team = message["view"]["seat"] % 2
            self.won += result["winner"] == team
            self.defeat = [self.defeat[0] + result["defeat"][0], self.defeat[1] + result["defeat"][1]]
            log(f"game {message.get('game')}: points {result['points']}, defeat-scores so far {self.defeat}")
            return {"type": "ok"}
        return {"type": "error", "message": f"unknown message type {kind!r}"}


def main() -> int:
    # Read and write bytes and do the UTF-8 ourselves, so the locale cannot get in the way.  Keep the real
    # standard output to ourselves and point sys.stdout at standard error: then a stray print() anywhere
    # lands in the log instead of breaking the protocol.
    source, sink = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr
    bot = Bot()
    try:
        while True:
            line = source.readline()  # returns as soon as a whole line has arrived
            if not line:
                log(f"end of input after {bot.games} games")
                return 0  # the referee closed our input: exit cleanly
            try:
                message = json.loads(line.decode("utf-8"))
                if not isinstance(message, dict):
                    raise ValueError("a message is a JSON object")
                if message.get("type") == "quit":
                    log(f"quit after {bot.games} games, {bot.won} won")
                    return 0  # no reply to quit
                reply = bot.handle(message)
            except Exception as error:  # a line we cannot read, or a bug in our strategy: say so, and go on
                reply = {"type": "error", "message": f"{type(error).__name__}: {error}"[:500]}
            # One line: compact JSON (ASCII-only, so also UTF-8), then a newline, then flush at once:
            # the referee is waiting for this line and would time us out if it sat in a buffer.
            sink.write(json.dumps(reply, separators=(",", ":")).encode("utf-8") + b"\n")
            sink.flush()
    except (BrokenPipeError, KeyboardInterrupt):
        return 1  # the referee has gone


if __name__ == "__main__":
    sys.exit(main())
