"""The HTML replay: one self-contained page, stepped through in a real browser (headless Chromium).

The browser part needs Chromium (Debian's `chromium`, which .ci/run installs) and Playwright's Python package
(the `test` extra), which drives the system's Chromium: no browser is downloaded.
"""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

import goat
from goat import arena, records
from goat.cli import main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def bot_game() -> records.GameRecord:
    bots = [goat.load_strategy(name, seed=seat) for seat, name in enumerate(["greedy", "random"] * 2)]
    return arena.play_game(bots, seed=5, names=["greedy", "random"] * 2)


class _References(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.external: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("src", "href") and value and not value.startswith("#"):
                self.external.append(f"{tag} {name}={value}")


def test_the_page_is_self_contained() -> None:
    page = records.to_html(bot_game())
    parser = _References()
    parser.feed(page)
    assert parser.external == []  # no script, style, image or font from anywhere
    assert not re.search(r"https?://(?!www\.w3\.org/)", page)  # only the SVG and XLink namespaces
    assert "<\\/" not in page.split('id="goat-data">')[0]


def _dom_status(page_text: str, tmp_path: Path) -> str:
    """The replay's status line as Chromium shows the page, and the scripts it counted."""
    sync_api = pytest.importorskip("playwright.sync_api")
    path = tmp_path / "page.html"
    path.write_text(page_text, encoding="utf-8")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page()
            page.goto(path.as_uri())
            scripts = page.evaluate("document.scripts.length")
            return f"{page.inner_text('#status')} ({scripts} scripts)"
        finally:
            browser.close()


@pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (Debian's chromium package)")
@pytest.mark.parametrize("where", ["players", "comments"])
def test_markup_in_names_or_comments_leaves_the_page_working_in_chromium(tmp_path: Path, where: str) -> None:
    # Found by a review: "<!--<script>" in a name made the browser take the page's program for the data's text.
    state = goat.play(goat.new_game(seed=1), goat.legal_moves(goat.new_game(seed=1))[0])
    hostile = "<!--<script>&</script><b>"
    made = records.from_state(
        state,
        seed=1,
        players=[hostile, "b", "c", "d"] if where == "players" else None,
        comments={1: hostile} if where == "comments" else {},
    )
    page = records.to_html(made)
    assert "<!--" not in page.split('id="goat-data">')[1].split("</script>")[0]
    assert _dom_status(page, tmp_path) == "step 0 of 1 (2 scripts)"


def test_goat_replay_writes_the_page(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    CliRunner().invoke(main, ["match", "greedy", "random", "--games-log", str(log)], catch_exceptions=False)
    out = tmp_path / "games.html"
    result = CliRunner().invoke(main, ["replay", str(log), "--html", str(out)], catch_exceptions=False)
    assert result.exit_code == 0 and "written to" in result.output
    assert out.read_text(encoding="utf-8").count('<option value="') >= 5 + 2  # perspectives, and one per game


@pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (Debian's chromium package)")
def test_the_replay_steps_through_every_move_in_chromium(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    record = bot_game()
    states = records.replay(record)
    path = tmp_path / "replay.html"
    path.write_text(records.to_html(record), encoding="utf-8")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
        )
        try:
            page = browser.new_page(viewport={"width": 900, "height": 820})
            page.goto(path.as_uri())

            def cards() -> list[str]:
                return page.eval_on_selector_all("#board g[data-card]", "els => els.map(e => e.dataset.card)")

            def open_cards(state: goat.GameState) -> list[str]:
                """Every card the open table must show face up at this state: hands, plays, the trump card."""
                shown = [str(c) for hand in state.hands for c in hand]
                shown += [str(c) for play in state.table for c in play.cards]
                return sorted([*shown, str(state.trump_card)])

            assert page.inner_text("#caption").startswith("The deal")
            assert sorted(c for c in cards() if c != "back") == open_cards(states[0])
            page.click("#next")  # a click …
            assert page.inner_text("#caption") == f"Move 1: {record.moves[0]}"
            page.keyboard.press("ArrowRight")  # … and a key
            assert page.inner_text("#caption") == f"Move 2: {record.moves[1]}"
            assert sorted(c for c in cards() if c != "back") == open_cards(states[2])
            for step in range(3, len(record.moves) + 1):  # every move, in order: the DOM holds the engine's cards
                page.keyboard.press("ArrowRight")
                assert page.get_attribute("body", "data-step") == str(step)
                assert sorted(c for c in cards() if c != "back") == open_cards(states[step]), step
            page.keyboard.press("ArrowRight")  # past the end: nothing moves
            assert page.get_attribute("body", "data-step") == str(len(record.moves))
            assert page.inner_text("#caption") == f"Move {len(record.moves)}: {record.moves[-1]}"
            result = record.result
            assert result is not None and f"Points {result.points[0]} : {result.points[1]}" in page.inner_text(
                "#result"
            )
            # One seat's view: its own hand face up, no card of another hand.
            page.keyboard.press("Home")
            for _ in range(5):
                page.keyboard.press("ArrowRight")
            page.select_option("#perspective", "1")
            seen = goat.view(states[5], 1)
            shown = [c for c in cards() if c != "back"]
            visible = {str(c) for c in seen.hand} | {str(seen.trump_card)}
            visible |= {str(c) for play in seen.table for c in play.cards}
            assert set(shown) <= visible and {str(c) for c in seen.hand} <= set(shown)
            # Drawn where the screenshot sees it: the board fills the page's width, every card on screen.
            board = page.locator("#board svg").bounding_box()
            assert board is not None and board["width"] > 600 and board["height"] > 400
            boxes = page.eval_on_selector_all(
                "#board g[data-card]",
                "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height, r.bottom]; })",
            )
            assert all(w > 20 and h > 30 and bottom <= 820 for w, h, bottom in boxes)
            shot = tmp_path / "replay.png"
            page.screenshot(path=str(shot))
            assert shot.stat().st_size > 20_000  # a real picture of the table, not a blank page
        finally:
            browser.close()


def test_an_empty_list_or_a_wrong_value_is_refused_with_a_clear_error() -> None:
    with pytest.raises(records.RecordError, match="at least one game"):
        records.to_html([])
    with pytest.raises(TypeError, match="takes a GameRecord"):
        records.to_html("games.jsonl")  # type: ignore[arg-type]


def test_an_illegal_record_is_refused_naming_the_step() -> None:
    record = bot_game()
    swapped = attrs.evolve(record, moves=(record.moves[1], record.moves[0], *record.moves[2:]))
    with pytest.raises(records.RecordError, match="step 1: illegal move"):
        records.to_html(swapped)


@pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (Debian's chromium package)")
def test_several_games_comments_and_menus_in_chromium(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    first = attrs.evolve(bot_game(), comments={0: "a quiet deal", 2: "why beat <here>?"})
    bots = [goat.load_strategy("random", seed=seat) for seat in range(4)]
    second = arena.play_game(bots, seed=9, names=["ann", "bob", "cy", "dee"])
    unfinished = attrs.evolve(second, moves=second.moves[:3], result=None)
    path = tmp_path / "games.html"
    path.write_text(records.to_html([first, second, unfinished]), encoding="utf-8")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page()
            page.goto(path.as_uri())
            assert page.inner_text("#comment") == "a quiet deal"
            page.keyboard.press("ArrowRight")
            assert page.inner_text("#comment") == ""
            page.keyboard.press("ArrowRight")
            assert page.inner_text("#comment") == "why beat <here>?"  # text, not markup
            assert "seat 1 (random)" in page.inner_text("#perspective")
            page.select_option("#game", "1")  # the second game: from its deal, with its own players
            assert page.get_attribute("body", "data-step") == "0"
            assert "seat 1 (bob)" in page.inner_text("#perspective")
            page.select_option("#perspective", "2")
            page.keyboard.press("ArrowRight")  # the arrow keys still step after a menu was used
            assert page.get_attribute("body", "data-step") == "1"
            page.select_option("#game", "2")
            page.keyboard.press("End")
            assert page.inner_text("#result") == "Unfinished after 3 moves."
        finally:
            browser.close()
