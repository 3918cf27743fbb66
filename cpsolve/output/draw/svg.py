"""A tiny SVG writer: escaped text, fixed number formatting, attributes in call order.

Same input, same bytes: numbers are written with at most two decimals and
no trailing zeros, attributes in the order given, no ids drawn from memory
addresses or clocks.  Text is real ``<text>`` in a generic font family, so
a picture is legible, selectable and read by screen readers; every picture
has a ``<title>`` (and ``role="img"``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from ...puzzles.widths import cells

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif"
"""Generic font stack: fonts already on the reader's machine, never fetched."""

INK = "#1f2430"
MUTED = "#6b7280"
LINE = "#9aa3b2"
PAPER = "#ffffff"
ACCENT = "#d9480f"
BLUE = "#1c5fb8"


EM = 0.6
"""Width of a narrow character, in ems: a little over a sans-serif font's average, so
that an estimate errs wide (a wide character, CJK or emoji, counts twice)."""


def text_width(text: str, size: float) -> float:
    """The estimated width of ``text`` (one line) at font size ``size``."""
    return cells(text) * EM * size


def wrapped(text: str, size: float, room: float) -> list[str]:
    """``text`` broken into lines at spaces, each estimated to fit ``room`` at font size
    ``size``; a word wider than ``room`` by itself is broken where the room ends."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(f"{lines[-1]} {word}", size) <= room:
            lines[-1] += " " + word
            continue
        while len(word) > 1 and text_width(word, size) > room:
            cut = max((k for k in range(1, len(word)) if text_width(word[:k], size) <= room),
                      default=1)
            lines.append(word[:cut])
            word = word[cut:]
        lines.append(word)
    return lines


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
"""Characters XML 1.0 forbids even as references (control characters, lone surrogates)."""


def xml_safe(text: str) -> str:
    """``text`` with every character XML 1.0 forbids replaced by U+FFFD, so an SVG or HTML
    page stays well-formed whatever a model's names hold (markup itself has none)."""
    return _NOT_XML.sub("\ufffd", text)


def num(value: float) -> str:
    """A number as SVG writes it: two decimals at most, no trailing zeros, no ``-0``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


_NAMES: dict[str, str] = {}
"""Attribute names as written, by keyword (``class_`` -> ``class``, ``stroke_width`` ->
``stroke-width``): worked out once each."""

_PLAIN = re.compile(r'[&<>"\n\r\t]')
"""What :func:`quoteattr` changes in a value; a value without any is quoted as it is."""


def attrs(**values: object) -> str:
    """Attributes in call order; ``class_`` -> ``class``, ``_`` -> ``-``; ``None`` omitted.

    The hot path of every picture (a gallery of 2,000 tours writes 1.5 million): a name is
    worked out once, and a value with nothing to escape (a number, a colour, a class) is
    quoted without :func:`quoteattr`'s replacements — the same bytes, a third of the time."""
    out = []
    for key, value in values.items():
        if value is None:
            continue
        name = _NAMES.get(key)
        if name is None:
            name = _NAMES[key] = "class" if key == "class_" else key.rstrip("_").replace("_", "-")
        text = num(value) if isinstance(value, float) else str(value)
        out.append(f' {name}="{text}"' if _PLAIN.search(text) is None
                   else f" {name}={quoteattr(text)}")
    return "".join(out)


@dataclass
class Svg:
    """One picture being drawn: call the shape methods, then :meth:`text_of`."""

    width: float
    height: float
    title: str
    description: str = ""
    parts: list[str] = field(default_factory=list)
    style: tuple[str, str] | None = None
    """A class for the root and the CSS every picture of its kind shares (its rules scoped
    to that class): what would be said again on each of many elements — a tour's 64
    numbered discs — is said once, in a ``<style>`` (:func:`shared_styles`: once a page)."""

    def add(self, tag: str, body: str | None = None, **values: object) -> None:
        """One element; ``body`` is text (escaped here), ``None`` makes it empty."""
        if body is None:
            self.parts.append(f"<{tag}{attrs(**values)}/>")
        else:
            self.parts.append(f"<{tag}{attrs(**values)}>{escape(body)}</{tag}>")

    def open(self, tag: str = "g", **values: object) -> None:
        """Open a group (close it with :meth:`close`)."""
        self.parts.append(f"<{tag}{attrs(**values)}>")

    def close(self, tag: str = "g") -> None:
        """Close the last group opened."""
        self.parts.append(f"</{tag}>")

    def rect(self, x: float, y: float, w: float, h: float, **values: object) -> None:
        """A rectangle (coordinates as floats so they are formatted alike)."""
        self.add("rect", x=float(x), y=float(y), width=float(w), height=float(h), **values)

    def line(self, x1: float, y1: float, x2: float, y2: float, **values: object) -> None:
        """A straight line."""
        self.add("line", x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2), **values)

    def circle(self, x: float, y: float, r: float, **values: object) -> None:
        """A circle."""
        self.add("circle", cx=float(x), cy=float(y), r=float(r), **values)

    def text(self, x: float, y: float, body: str, size: float, room: float | None = None,
             **values: object) -> None:
        """Text centred on ``(x, y)``; text estimated wider than ``room`` is drawn smaller
        and held to that width (``textLength``), so it never spills out of its place."""
        values.setdefault("fill", INK)
        if room is not None and text_width(body, size) > room:
            size *= room / text_width(body, size)
            values.update(textLength=float(room), lengthAdjust="spacingAndGlyphs")
        self.add("text", body, x=float(x), y=float(y), font_size=float(size),
                 text_anchor="middle", dominant_baseline="central", **values)

    def caption(self, x: float, y: float, body: str, size: float, room: float,
                **values: object) -> float:
        """``body`` from ``(x, y)`` (the first line's baseline) wrapped to ``room``, one
        ``<text>`` a line; the height the lines after the first take."""
        lines = wrapped(body, size, room)
        for i, line in enumerate(lines):
            self.add("text", line, x=float(x), y=float(y + i * size * 1.3),
                     font_size=f"{size:g}", **values)
        return (len(lines) - 1) * size * 1.3 if lines else 0.0

    def text_of(self) -> str:
        """The whole picture as one ``<svg>`` element (no XML declaration: inlines as is)."""
        kind, css = self.style or (None, "")
        head = (f"<svg xmlns=\"http://www.w3.org/2000/svg\""
                f"{attrs(width=float(self.width), height=float(self.height))}"
                f" viewBox=\"0 0 {num(self.width)} {num(self.height)}\""
                f"{attrs(class_=kind)} role=\"img\" font-family={quoteattr(FONT)}>")
        title = f"<title>{escape(self.title)}</title>"
        desc = f"<desc>{escape(self.description)}</desc>" if self.description else ""
        style = f"<style>{css}</style>" if css else ""
        return xml_safe("".join([head, title, desc, style, *self.parts, "</svg>"])) + "\n"


_STYLE = re.compile(r"<style>[^<]*</style>")


def shared_styles(pictures: list[str] | tuple[str, ...]) -> list[str]:
    """``pictures`` (SVGs inlined in one HTML page) with each ``<style>`` that an earlier
    one already holds left out: a style inside an inline SVG applies to the whole page, and
    its rules are scoped to its kind's class, so the first one serves all the boards of its
    kind (a gallery of 2,000 tours holds one)."""
    seen: set[str] = set()
    out = []
    for svg in pictures:
        found = _STYLE.search(svg)
        if found is not None and found.group() in seen:
            svg = svg[:found.start()] + svg[found.end():]
        elif found is not None:
            seen.add(found.group())
        out.append(svg)
    return out


def size(svg: str) -> tuple[float, float]:
    """Width and height of a picture written by :class:`Svg` (read from its first tag)."""
    head = svg.split(">", 1)[0]
    width = float(head.split(' width="', 1)[1].split('"', 1)[0])
    height = float(head.split(' height="', 1)[1].split('"', 1)[0])
    return width, height


CAPTION_WIDTH = 320.0
"""Least width of a captioned picture, so that a small board's caption is not one word a
line."""


def captioned(picture: str, title: str, caption: str, font: float = 14) -> str:
    """``picture`` (an SVG written by :class:`Svg`) under ``caption``, wrapped to its width,
    as one SVG titled ``title``: the picture is nested whole, its own title kept."""
    width, height = size(picture)
    svg = Svg(max(width, CAPTION_WIDTH), 0.0, title, caption)
    below = svg.caption(12, 12 + font, caption, font, svg.width - 24, fill=ACCENT,
                        font_weight="bold", class_="verdict")
    top = 12 + font + below + 10
    svg.height = top + height
    svg.parts.append(picture.strip().replace("<svg ", f'<svg x="{num((svg.width - width) / 2)}"'
                                                      f' y="{num(top)}" ', 1))
    return svg.text_of()


def points(coords: list[tuple[float, float]]) -> str:
    """``x,y x,y ...`` for polylines and polygons."""
    return " ".join(f"{num(x)},{num(y)}" for x, y in coords)
