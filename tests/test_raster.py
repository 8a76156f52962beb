"""goat.raster and the environments' render_mode="rgb_array": goat/Goat-v0, the PettingZoo env, the vector env.

Each frame is the picture goat.svg draws, as (H, W, 3) uint8 pixels; stable-baselines3 makes its environments
with render_mode="rgb_array" (before, goat/Goat-v0 refused it with a ValueError), and Gymnasium's RecordVideo
records the frames.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("resvg_py")
pytest.importorskip("PIL")

import goat  # noqa: E402
from goat import raster, svg  # noqa: E402


def is_frame(found: Any) -> bool:
    return isinstance(found, np.ndarray) and found.dtype == np.uint8 and found.ndim == 3 and found.shape[2] == 3


def legal(mask: Any, rng: Any) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def test_a_frame_is_the_svg_picture_as_pixels() -> None:
    game = goat.new_game(seed=4)
    frame = raster.table(game, bottom=1)
    assert is_frame(frame) and frame.shape == (560, 760, 3)
    assert np.array_equal(frame, raster.rgb_array(svg.table(game, bottom=1)))
    felt = frame[280, 380]  # the table's middle is its felt, not the white page
    assert felt.tolist() != [255, 255, 255]
    # another position, another seat at the bottom: another picture
    later = goat.play(game, goat.legal_moves(game)[0])
    assert not np.array_equal(raster.table(later, bottom=1), frame)
    assert not np.array_equal(raster.table(game, bottom=0), frame)
    frame[0, 0] = 0  # a new array each time: changing one changes no other
    assert not np.array_equal(raster.table(game, bottom=1)[0, 0], frame[0, 0])


def test_rgb_array_takes_an_svg_document_only() -> None:
    with pytest.raises(TypeError, match="SVG document as a str"):
        raster.rgb_array(b"<svg/>")  # type: ignore[arg-type]


def test_without_the_render_extra_the_module_names_it() -> None:
    code = "import sys; sys.modules['resvg_py'] = None; import goat.raster"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 1 and "MissingExtraError" in done.stderr
    assert "pip install " in done.stderr and "goat-cards[render]" in done.stderr


# --- goat/Goat-v0 --------------------------------------------------------------------------------------------

gymnasium = pytest.importorskip("gymnasium")


def test_goat_v0_is_made_as_stable_baselines3_makes_it() -> None:
    # make_vec_env calls gymnasium.make(env_id, render_mode="rgb_array"): this raised ValueError before
    import goat.adapters.gymnasium  # noqa: F401 - registers goat/Goat-v0

    env = gymnasium.make("goat/Goat-v0", render_mode="rgb_array", opponents="random")
    assert "rgb_array" in env.metadata["render_modes"] and env.metadata["render_fps"] > 0
    _, info = env.reset(seed=3)
    first = env.render()
    assert is_frame(first)
    assert np.array_equal(first, raster.table(env.unwrapped.state_, bottom=0))
    env.step(legal(info["action_mask"], np.random.default_rng(0)))
    second = env.render()
    assert is_frame(second) and second.shape == first.shape and not np.array_equal(first, second)


@pytest.mark.filterwarnings("ignore:.*is different from the unwrapped version")  # the checker prefers unwrapped
def test_gymnasiums_env_checker_checks_the_rgb_array_render() -> None:
    from gymnasium.utils.env_checker import check_env

    import goat.adapters.gymnasium  # noqa: F401 - registers goat/Goat-v0

    # its render check included, of every mode of the metadata (so the human mode prints)
    check_env(gymnasium.make("goat/Goat-v0", seat=1, opponents="random", render_mode="rgb_array"))


def test_the_learners_seat_is_at_the_bottom() -> None:
    from goat.adapters.gymnasium import GoatEnv

    env = GoatEnv(seat=3, render_mode="rgb_array")
    env.reset(seed=5)
    assert env.state_ is not None
    assert np.array_equal(env.render(), raster.table(env.state_, bottom=3))


def test_record_video_writes_a_video_of_a_game(tmp_path: Path) -> None:
    pytest.importorskip("moviepy", reason="gymnasium's RecordVideo writes videos with moviepy")
    from gymnasium.wrappers import RecordVideo

    import goat.adapters.gymnasium  # noqa: F401 - registers goat/Goat-v0

    env = RecordVideo(
        gymnasium.make("goat/Goat-v0", render_mode="rgb_array", opponents="random"),
        video_folder=str(tmp_path / "videos"),  # a new folder: RecordVideo warns of one that exists
        name_prefix="goat",
        episode_trigger=lambda episode: True,
    )
    rng = np.random.default_rng(1)
    _, info = env.reset(seed=1)
    terminated = False
    while not terminated:
        _, _, terminated, _, info = env.step(legal(info["action_mask"], rng))
    env.close()  # writes the episode's video
    videos = list((tmp_path / "videos").glob("goat-episode-0.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000


# --- the PettingZoo environment ----------------------------------------------------------------------------


def test_the_pettingzoo_env_draws_rgb_array_frames() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import render_test

    from goat.adapters.pettingzoo import env

    render_test(env)  # every mode of the metadata, rgb_array among them: (H, W, 3) uint8 frames
    game = env(render_mode="rgb_array")
    game.reset(seed=2)
    first = game.render()
    assert np.array_equal(first, raster.table(game.unwrapped.state_))
    observation, *_ = game.last()
    game.step(legal(observation["action_mask"], np.random.default_rng(0)))
    assert is_frame(game.render()) and not np.array_equal(game.render(), first)


# --- the vector environment ---------------------------------------------------------------------------------


def test_the_vector_env_draws_one_frame_per_sub_environment() -> None:
    from goat.batch import vector_env

    env = vector_env(3, seat=2, render_mode="rgb_array")
    assert env.metadata["render_modes"] == ["rgb_array"] and env.render_mode == "rgb_array"
    _, info = env.reset(seed=1)
    frames = env.render()
    assert frames is not None and len(frames) == 3 and all(is_frame(frame) for frame in frames)
    for game, frame in enumerate(frames):
        assert np.array_equal(frame, raster.table(env.batch.state(game), bottom=2))
    assert not np.array_equal(frames[0], frames[1])  # other deals, other pictures
    rng = np.random.default_rng(0)
    env.step(np.array([legal(mask, rng) for mask in info["action_mask"]]))
    after = env.render()
    assert after is not None and not np.array_equal(after[0], frames[0])
    assert vector_env(2).render() is None
    with pytest.raises(ValueError, match="render_mode"):
        vector_env(2, render_mode="human")
