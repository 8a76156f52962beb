#!/usr/bin/env node
// A complete Goat bot in plain JavaScript for Node.js (no npm packages): a template to copy for your own bot.
//
// It speaks goat's bot protocol, version 1:
//
//     goat match 'exec:node examples/bots/js_bot.js' greedy --seed 3
//
// The referee starts this program as a child process and talks to it in JSON lines, much as a chess GUI
// talks to a UCI engine:
//
// * The referee writes one JSON object per line (UTF-8, ending in "\n") to our standard input.
// * We answer EVERY message except "quit" with exactly ONE JSON line on standard output, in order.
// * Nothing else may ever appear on standard output: logs go to standard error (console.error).
//
//     referee -> bot                                                   bot -> referee
//     {"type":"hello","protocol":1,"seat":0,"seed":7,"time_limit":10}  {"type":"hello","protocol":1,"name":"..."}
//     {"type":"start_game","game":1,"view":VIEW}                       {"type":"ok"}
//     {"type":"choose","game":1,"view":VIEW,"legal":["0 lead 6C",...]} {"type":"move","move":"0 lead 6C"}
//     {"type":"end_game","game":1,"view":VIEW,"result":RESULT}         {"type":"ok"}
//     {"type":"quit"}                                                  (no reply: exit with status 0)
//
// Any reply may instead be {"type":"error","message":"..."}; the referee counts it as this bot's fault.
// The documentation's "Bot protocol" page has the full contract; goat/arena/protocol.py is the reference.
//
// The strategy (chooseMove) is the same rule of thumb as examples/bots/python_bot.py, decision for
// decision.  It is deterministic: the same messages always get the same answers, so it uses no random
// numbers (a bot that does should seed its generator with the "seed" of hello, so that a match can be
// replayed; Math.random cannot be seeded).

"use strict";

const readline = require("readline");

const NAME = "js-example-bot";
const PROTOCOL = 1; // the protocol version this bot speaks

// --- cards ----------------------------------------------------------------------------------------
//
// A card is text: the rank then the suit letter, "6C", "10H", "QS", "AD".  Suits: C D H S.
// Ranks from lowest to highest (the order in which one card beats another of its suit):
const RANK_ORDER = ["6", "7", "8", "9", "J", "Q", "K", "10", "A"];
// Card points; the 36 cards hold 120 in all, and a team needs 61 to win a game.
const POINTS = { 6: 0, 7: 0, 8: 0, 9: 0, J: 2, Q: 3, K: 4, 10: 10, A: 11 };

const rank = (card) => card.slice(0, -1); // "10H" -> "10"
const suit = (card) => card.slice(-1); // "10H" -> "H"
const points = (cards) => cards.reduce((sum, card) => sum + POINTS[rank(card)], 0);
const trumps = (cards, trump) => cards.filter((card) => suit(card) === trump).length;
const rankSum = (cards) => cards.reduce((sum, card) => sum + RANK_ORDER.indexOf(rank(card)), 0);

// --- moves ----------------------------------------------------------------------------------------
//
// A move is text too: "<seat> <kind> <cards...>", for example "1 lead 10H QH", "2 beat 7S",
// "3 pass 6C 9D", "0 molodka 6S 7S 8S 9S", "2 wait".  The kinds:
//   lead     open a trick with one or more cards of one suit
//   beat     answer face up with as many cards, beating the top play (trumps beat any non-trump)
//   pass     answer face down with as many cards, any cards: they go to whoever wins the trick
//   molodka  declare four cards of one suit, out of turn: it becomes the lead of the trick
//   wait     "not now", when the referee asks a molodka holder whether to declare
// The referee lists the legal moves in "legal"; the reply copies one of them exactly.  The plays in
// the view are written the same way, except that another seat's face-down pass shows "??" for each
// card: "2 pass ?? ??".

const moveSeat = (move) => Number(move.split(" ")[0]);
const moveKind = (move) => move.split(" ")[1];
const moveCards = (move) => move.split(" ").slice(2);

// How much a lead costs us: leading a trump first, then card points, then rank (lower is cheaper).
const leadKey = (move, trump) => {
  const cards = moveCards(move);
  return [trumps(cards, trump), points(cards), rankSum(cards)];
};

// How much a beat or a pass costs us: card points first, then trumps used, then rank (lower is cheaper).
const answerKey = (move, trump) => {
  const cards = moveCards(move);
  return [points(cards), trumps(cards, trump), rankSum(cards)];
};

// How good a pass is as a gift to the partner's trick: no trumps first, then the most points (lower is better).
const giftKey = (move, trump) => {
  const cards = moveCards(move);
  return [trumps(cards, trump), -points(cards)];
};

// Compare two keys element by element, as Python compares tuples.
const compareKeys = (a, b) => {
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
};

// The move with the lowest key; on a tie the one listed first, so that play is deterministic.
const cheapest = (moves, key, trump) => {
  let best = moves[0];
  let bestKey = key(best, trump);
  for (const move of moves.slice(1)) {
    const k = key(move, trump);
    if (compareKeys(k, bestKey) < 0) {
      best = move;
      bestKey = k;
    }
  }
  return best;
};

// --- the strategy ---------------------------------------------------------------------------------

// Pick one of the legal moves (returned exactly as the referee wrote it).
//
// The VIEW is what this seat knows: "seat", "hand", "trump" (suit letter), "trump_card", "table" (the
// plays of the trick so far, each written as a move is: "1 lead 10H", and another seat's face-down
// pass shows "??" for each card, "2 pass ??"), "tricks", "history", "hand_sizes", "stock_size", "defeat", ...
function chooseMove(view, legal) {
  const trump = view.trump;
  const me = view.seat;
  const byKind = {};
  for (const move of legal) {
    (byKind[moveKind(move)] ??= []).push(move);
  }

  // 1. A molodka (four cards of one suit) is a strong lead: declare it whenever it is offered.
  if (byKind.molodka) return byKind.molodka[0];

  // 2. Leading: lead one card, the least valuable one, keeping trumps for later.
  if (byKind.lead) {
    const singles = byKind.lead.filter((move) => moveCards(move).length === 1);
    return cheapest(singles.length ? singles : byKind.lead, leadKey, trump);
  }

  // 3. Answering a lead.  The top play is the last lead, beat or molodka on the table (a pass never is);
  //    whoever owns it when all four have played takes the trick, with every card in it.
  if (byKind.beat || byKind.pass) {
    const table = view.table;
    const top = table.filter((play) => moveKind(play) !== "pass").at(-1);
    const partnerOnTop = moveSeat(top) % 2 === me % 2; // team = seat % 2: seats 0 and 2 against 1 and 3
    const lastToPlay = table.length === 3;
    const beats = byKind.beat ?? [];
    const passes = byKind.pass ?? [];
    if (partnerOnTop && lastToPlay && passes.length) {
      // The trick is ours whatever we do: give the partner our most valuable cards (but no trumps).
      return cheapest(passes, giftKey, trump);
    }
    if (!partnerOnTop && beats.length) {
      // An opponent holds the trick: take it as cheaply as we can.  The cards we beat with are not
      // lost: they come back in the trick.  (Beating only when the table is worth 10 points or more
      // loses nearly every match against goat's greedy bot: it leads worthless cards and keeps the lead.)
      return cheapest(beats, answerKey, trump);
    }
    if (passes.length) {
      // Our partner holds the trick but someone may still beat it, or we cannot beat: throw the
      // least valuable cards, since passed cards go to whoever wins the trick.
      return cheapest(passes, answerKey, trump);
    }
    return cheapest(beats, answerKey, trump);
  }

  // 4. Only "wait" is left (a molodka holder being asked; we declared above when we could).
  return legal[0];
}

// --- the protocol loop ----------------------------------------------------------------------------

// Write to standard error, which the referee keeps apart (and shows when the bot faults).
const log = (text) => console.error(`[${NAME}] ${text}`);

// The bot's state across messages: its seat, and what it has learnt about the match so far.
const state = {
  seat: null,
  seed: null,
  games: 0, // games started
  won: 0, // games our team won
  defeat: [0, 0], // defeat-scores by team; a team with 12 is the goat
};

// The one reply to a message (quit never gets here).
function handle(message) {
  switch (message.type) {
    case "hello": {
      if (message.protocol !== PROTOCOL) {
        const wanted = JSON.stringify(message.protocol);
        return { type: "error", message: `this bot speaks protocol ${PROTOCOL}, not ${wanted}` };
      }
      state.seat = message.seat;
      state.seed = message.seed ?? null; // seed a random generator with this, if the bot used one
      log(`seat ${state.seat}, seed ${state.seed}, ${message.time_limit} s per reply`);
      return { type: "hello", protocol: PROTOCOL, name: NAME }; // extra fields would be allowed
    }
    case "start_game":
      state.games += 1;
      return { type: "ok" };
    case "choose": {
      const legal = message.legal;
      if (!Array.isArray(legal) || legal.length === 0) {
        return { type: "error", message: "choose with no legal moves" };
      }
      return { type: "move", move: chooseMove(message.view, legal) };
    }
    case "end_game": {
      const result = message.result; // {points, tricks, defeat, balls, winner, last_trick_winner, forfeit}
      const team = message.view.seat % 2;
      if (result.winner === team) state.won += 1;
      state.defeat = [state.defeat[0] + result.defeat[0], state.defeat[1] + result.defeat[1]];
      log(`game ${message.game}: points ${result.points}, defeat-scores so far ${state.defeat}`);
      return { type: "ok" };
    }
    default:
      return { type: "error", message: `unknown message type ${JSON.stringify(message.type)}` };
  }
}

// One reply: compact JSON (JSON.stringify), then a newline.  On Linux, writes to a pipe are synchronous,
// so the line is on its way to the referee, who is waiting for it, as soon as write() returns.
const send = (reply) => process.stdout.write(JSON.stringify(reply) + "\n");

// If the referee goes away, writing fails with EPIPE: leave quietly.
process.stdout.on("error", () => process.exit(1));

// readline hands us standard input one line at a time (decoded as UTF-8), as soon as each line arrives.
const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
let quitting = false;

input.on("line", (line) => {
  if (quitting) return; // nothing after quit is read
  let reply;
  try {
    const message = JSON.parse(line); // throws a SyntaxError on a line that is not JSON
    if (message === null || typeof message !== "object" || Array.isArray(message)) {
      throw new TypeError("a message is a JSON object");
    }
    if (message.type === "quit") {
      log(`quit after ${state.games} games, ${state.won} won`);
      quitting = true;
      input.close(); // no reply to quit; "close" below ends the program
      return;
    }
    reply = handle(message);
  } catch (error) {
    // A line we cannot read, or a bug in our strategy: say so, and go on.
    reply = { type: "error", message: `${error.name}: ${error.message}`.slice(0, 500) };
  }
  send(reply);
});

// The end of input (the referee closed our standard input) or quit: exit cleanly, with status 0, once
// everything written has been flushed (setting exitCode rather than calling process.exit() lets Node
// finish any pending write first).
input.on("close", () => {
  if (!quitting) log(`end of input after ${state.games} games`);
  process.exitCode = 0;
  process.stdin.destroy();
});
