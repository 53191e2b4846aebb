"""Plots for the reports as inline SVG, drawn by hand: no script, no network, no plotting library
(inline SVG in HTML needs no namespace, so the pages hold no URL at all).

Each function takes plain rows and returns ``Markup`` (safe to drop into an autoescaped page):
every label that came from outside (a solver's name, a kind) is escaped here, so a name like
``<script>`` is drawn as text.  Sizes are in SVG user units; the page scales them down to fit a narrow
window, never up: a plot is WIDTH units wide so that on a phone (a 390 px window less the page's margins)
it is drawn at about 1:1 and its smallest text (MIN_FONT) is still about 11 px high; drawn 590 units wide, a
phone scaled the labels to 5 px.
"""

from __future__ import annotations

from math import ceil, floor, log10

from markupsafe import Markup, escape

LABEL_WIDTH = 112  # room for the row labels at the left: LABEL_CHARS monospace characters of 12 units
LABEL_CHARS = 14  # a longer label is cut, its whole text in the row's tooltip
PLOT_WIDTH = 224
WIDTH = LABEL_WIDTH + PLOT_WIDTH + 24  # 360: the plot's width, which fits a phone's window unscaled
MIN_FONT = 11  # the smallest text of a plot, in units (= px on a phone; a test measures it in Chromium)
LEGEND_COLUMNS = 3  # kinds per row of the stacked bars' legend: "consistency" fits a third of the width
ROW = 22  # height of one row
TOP = 24  # room for the axis labels above the rows
COLOURS = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
           "#bab0ac")


def _svg(width: float, height: float, title: str, body: list[str]) -> Markup:
    head = (f'<svg class="plot" role="img" width="{width:.0f}" '
            f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" aria-label="{escape(title)}">'
            f'<title>{escape(title)}</title>')
    return Markup(head + "".join(body) + "</svg>")


def _label(y: float, text: str) -> str:
    shown = text if len(text) <= LABEL_CHARS else text[:LABEL_CHARS - 1] + "\u2026"
    return (f'<text x="{LABEL_WIDTH - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="12" '
            f'font-family="ui-monospace, monospace"><title>{escape(text)}</title>{escape(shown)}</text>')


def _axis(height: float, ticks: list[tuple[float, str]]) -> list[str]:
    """Vertical grid lines with their labels on top, x in [0, 1] of the plot's width."""
    out = []
    for x, text in ticks:
        px = LABEL_WIDTH + x * PLOT_WIDTH
        out.append(f'<line x1="{px:.1f}" y1="{TOP - 6}" x2="{px:.1f}" y2="{height - 4:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{px:.1f}" y="{TOP - 10}" text-anchor="middle" font-size="{MIN_FONT}" '
                   f'fill="#555">{escape(text)}</text>')
    return out


def interval_plot(rows: list[tuple[str, float, float, float]], title: str,
                  marks: list[tuple[str, float]] = ()) -> Markup:
    """Win rate per row with its interval: (label, rate, low, high), rates in [0, 1]; ``marks`` are
    reference rates drawn as dashed lines (e.g. published win rates)."""
    height = TOP + ROW * max(1, len(rows)) + (16 if marks else 6)
    body = _axis(height, [(t / 100, f"{t}%") for t in range(0, 101, 20)])
    for name, rate in marks:
        px = LABEL_WIDTH + rate * PLOT_WIDTH
        body.append(f'<line x1="{px:.1f}" y1="{TOP - 4}" x2="{px:.1f}" y2="{height - 12:.1f}" stroke="#888" '
                    f'stroke-dasharray="4 3"><title>{escape(name)}: {100 * rate:.1f}%</title></line>')
        anchor = "end" if rate > 0.75 else "start" if rate < 0.25 else "middle"  # kept inside the plot's width
        body.append(f'<text x="{px:.1f}" y="{height - 2:.1f}" text-anchor="{anchor}" font-size="{MIN_FONT}" '
                    f'fill="#555">{escape(name)}</text>')
    for i, (name, rate, low, high) in enumerate(rows):
        y = TOP + ROW * i + ROW / 2
        x0, x1, x = (LABEL_WIDTH + v * PLOT_WIDTH for v in (low, high, rate))
        tip = f"{name}: {100 * rate:.1f}% (95% interval {100 * low:.1f}-{100 * high:.1f}%)"
        body.append(_label(y, name))
        body.append(f'<g><title>{escape(tip)}</title>'
                    f'<line x1="{x0:.1f}" y1="{y:.1f}" x2="{x1:.1f}" y2="{y:.1f}" stroke="#333" stroke-width="2"/>'
                    f'<line x1="{x0:.1f}" y1="{y - 5:.1f}" x2="{x0:.1f}" y2="{y + 5:.1f}" stroke="#333"/>'
                    f'<line x1="{x1:.1f}" y1="{y - 5:.1f}" x2="{x1:.1f}" y2="{y + 5:.1f}" stroke="#333"/>'
                    f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{COLOURS[0]}"/></g>')
    return _svg(WIDTH, height, title, body)


def _scale(value: float) -> tuple[float, list[tuple[float, float]]]:
    """The axis for values up to ``value``: its end, a whole number of round steps (1, 2 or 5 times a power of
    ten, five steps at most) just past ``value``, and the ticks as (place in [0, 1], value): 21 s ends at 25 s,
    not 50."""
    if value <= 0:
        return 1.0, [(0.0, 0.0), (1.0, 1.0)]
    power = 10.0 ** floor(log10(value / 5))
    step = next(f * power for f in (1, 2, 5, 10) if f * power * 5 >= value)
    steps = max(1, ceil(value / step - 1e-9))
    top = steps * step
    return top, [(i / steps, i * step) for i in range(steps + 1)]


def _number(value: float) -> str:
    return f"{value:g}" if value < 1e5 else f"{value:.3g}"


def bar_chart(rows: list[tuple[str, float]], title: str, unit: str = "") -> Markup:
    """One horizontal bar per row: (label, value >= 0), the value written at the bar's end."""
    top, ticks = _scale(max((v for _, v in rows), default=0.0))
    height = TOP + ROW * max(1, len(rows)) + 6
    body = _axis(height, [(x, _number(v) + unit) for x, v in ticks])
    for i, (name, value) in enumerate(rows):
        y = TOP + ROW * i + ROW / 2
        w = PLOT_WIDTH * value / top
        body.append(_label(y, name))
        body.append(f'<rect x="{LABEL_WIDTH}" y="{y - 7:.1f}" width="{w:.1f}" height="14" fill="{COLOURS[0]}">'
                    f'<title>{escape(name)}: {escape(_number(round(value, 3)))}{escape(unit)}</title></rect>')
    return _svg(WIDTH, height, title, body)


def stacked_bars(rows: list[tuple[str, dict[str, int]]], title: str) -> Markup:
    """One horizontal bar per row, split by kind: (label, {kind: count}); a legend of the kinds below."""
    kinds = sorted({k for _, counts in rows for k in counts})
    colour = {k: COLOURS[i % len(COLOURS)] for i, k in enumerate(kinds)}
    top, ticks = _scale(max((sum(c.values()) for _, c in rows), default=0))
    legend_rows = (len(kinds) + LEGEND_COLUMNS - 1) // LEGEND_COLUMNS
    height = TOP + ROW * max(1, len(rows)) + 8 + 18 * legend_rows
    body = _axis(TOP + ROW * max(1, len(rows)) + 6, [(x, _number(v)) for x, v in ticks])
    for i, (name, counts) in enumerate(rows):
        y = TOP + ROW * i + ROW / 2
        x = float(LABEL_WIDTH)
        body.append(_label(y, name))
        for kind in kinds:
            n = counts.get(kind, 0)
            if not n:
                continue
            w = PLOT_WIDTH * n / top
            body.append(f'<rect x="{x:.1f}" y="{y - 7:.1f}" width="{w:.1f}" height="14" fill="{colour[kind]}">'
                        f'<title>{escape(name)}, {escape(kind)}: {n}</title></rect>')
            x += w
    base = TOP + ROW * max(1, len(rows)) + 14
    for j, kind in enumerate(kinds):
        column, row = j % LEGEND_COLUMNS, j // LEGEND_COLUMNS
        lx, ly = 8 + column * (WIDTH - 8) / LEGEND_COLUMNS, base + 18 * row
        body.append(f'<rect x="{lx:.1f}" y="{ly - 9:.1f}" width="10" height="10" fill="{colour[kind]}"/>'
                    f'<text x="{lx + 14:.1f}" y="{ly:.1f}" font-size="{MIN_FONT}">{escape(kind)}</text>')
    return _svg(WIDTH, height, title, body)
