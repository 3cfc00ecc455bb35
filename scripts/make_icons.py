"""The installed app's icons, drawn once with Pillow and committed under static/img/.

    python scripts/make_icons.py

The league's ball (static/img/favicon.svg) on the pitch's green (--pitch in static/css/league.css):
192 and 512 px for Android, a maskable 512 px whose ball stays inside the safe circle (the middle 80 %),
and the 180 px apple-touch-icon iOS asks for. Run it again only when the ball changes.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parent.parent / "static" / "img"
PITCH = "#1f5d2e"
BALL = "#8b4a1c"
CHALK = "#ffffff"
SCALE = 4  # drawn large and scaled down: Pillow's shapes have no anti-aliasing of their own


def icon(size: int, *, ball_width: float) -> Image.Image:
    """The ball centred on green, `ball_width` of the icon wide, drawn as the favicon's 32 × 20 box."""
    big = size * SCALE
    image = Image.new("RGB", (big, big), PITCH)
    draw = ImageDraw.Draw(image)
    unit = big * ball_width / 32  # one unit of the favicon's viewBox
    left, top = (big - 32 * unit) / 2, (big - 20 * unit) / 2

    def at(x: float, y: float) -> tuple[float, float]:
        return left + x * unit, top + y * unit

    stroke = max(1, round(1.5 * unit))
    draw.ellipse([at(1, 1), at(31, 19)], fill=BALL, outline=CHALK, width=stroke)
    draw.line([at(9, 10), at(23, 10)], fill=CHALK, width=stroke)
    for x in (12, 16, 20):
        draw.line([at(x, 7), at(x, 13)], fill=CHALK, width=stroke)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    icons = {
        "icon-192.png": icon(192, ball_width=0.8),
        "icon-512.png": icon(512, ball_width=0.8),
        "icon-maskable-512.png": icon(512, ball_width=0.6),  # the safe zone is a circle of 80 % of the side
        "apple-touch-icon.png": icon(180, ball_width=0.75),  # iOS rounds the corners itself
    }
    for name, image in icons.items():
        image.save(OUT / name, optimize=True)
        print(OUT / name)


if __name__ == "__main__":
    main()
