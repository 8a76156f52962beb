"""goat's pictures as pixels: an SVG drawing of :mod:`goat.svg` as an ``(height, width, 3)`` uint8 array
(extra ``goat-cards[render]``), the frames of the environments' ``render_mode="rgb_array"``.

>>> import goat
>>> from goat import raster, svg
>>> game = goat.new_game(seed=1)
>>> frame = raster.table(game, bottom=2)
>>> frame.shape, frame.dtype.name
((560, 760, 3), 'uint8')
>>> bool((frame == raster.rgb_array(svg.table(game, bottom=2))).all())
True

The drawing is rasterised by resvg (the ``resvg-py`` binding) and decoded by Pillow.  Text — ranks, suits,
labels — is set in the system's fonts (DejaVu Sans, Segoe UI Symbol, Arial or any sans-serif); on a machine
with no font at all (a bare container) the cards show no ranks: install one (``apt-get install
fonts-dejavu-core``).

Why resvg-py: the candidates were measured on this table (760 x 560, one frame, median of 15, a shared
2-core machine, so rough): resvg-py 41 ms (one 1.4 MB abi3 wheel for Linux, macOS and Windows, no
dependency; resvg is the reference-grade renderer of the linebender project; most of the time is its PNG
round trip and its font database, loaded per call); pyvips with pyvips-binary 9 ms (libvips and librsvg in an
8 MB wheel, but pyvips itself is an sdist that builds a cffi module); cairosvg 33 ms (needs the system's
cairo library, which Windows and macOS lack); skia-python 3 ms (50 MB of wheels, and its SVG module drew no
text and swapped the colour channels without more set-up); svglib (needs pycairo, so cairo again).  A frame is
drawn only when asked (``render()``, a video recorder), never in training, so the one small wheel that every
platform installs won over the fastest.
"""

from __future__ import annotations

import io
from typing import Any

from goat import svg
from goat.errors import MissingExtraError
from goat.state import GameState

try:
    import numpy as np
    import resvg_py
    from PIL import Image
except ImportError as error:  # pragma: no cover - exercised in a subprocess test
    raise MissingExtraError("goat.raster", "resvg-py, Pillow and NumPy", "render", error) from None

__all__ = ["rgb_array", "table"]


def rgb_array(picture: str) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """The SVG document ``picture`` (as :mod:`goat.svg` draws it) rasterised at its own size, one pixel per SVG
    unit, on white (as a page shows it): a new ``(height, width, 3)`` uint8 array of RGB colours."""
    if not isinstance(picture, str):
        raise TypeError(f"rgb_array() takes an SVG document as a str, not {type(picture).__name__}")
    png = resvg_py.svg_to_bytes(svg_string=picture, background="white")
    with Image.open(io.BytesIO(bytes(png))) as image:
        return np.array(image.convert("RGB"), dtype=np.uint8)


def table(state: GameState, *, bottom: int = 0) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """The whole table of ``state`` as :func:`goat.svg.table` draws it (``bottom`` the seat at the bottom), as
    pixels: the ``rgb_array`` frame of goat's Gymnasium environments."""
    return rgb_array(svg.table(state, bottom=bottom))
