"""Colours, sizes and the words a person reads on the drawn board."""

from __future__ import annotations

from tribune_env.data import Faction, Region

WIDTH, HEIGHT = 1600, 1000  # the SVG canvas (user units), the same for every game
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
PAPER, INK, LINE, BOX = "#f3ead7", "#2b2118", "#8a7556", "#fbf6ea"
HIGHLIGHT = "#ff3d00"
CARD_W, CARD_H = 26, 36

PLAYER_COLOURS = ("#d62728", "#1f5fbf", "#2ca02c", "#e6a700", "#8e44ad", "#17a2b8")
FACTION_COLOURS = {
    Faction.GLADIATORS: "#9c3d1c",
    Faction.LEGATES: "#3b6db3",
    Faction.PRAETORIANS: "#5b3f8c",
    Faction.PLEBEIANS: "#4f8a3c",
    Faction.PATRICIANS: "#c99a1e",
    Faction.VESTALS: "#e6e0cf",
    Faction.SENATORS: "#b23a48",
}
FACTION_SHORT = {
    Faction.GLADIATORS: "Gla",
    Faction.LEGATES: "Leg",
    Faction.PRAETORIANS: "Pra",
    Faction.PLEBEIANS: "Ple",
    Faction.PATRICIANS: "Pat",
    Faction.VESTALS: "Ves",
    Faction.SENATORS: "Sen",
}
SLAVE_COLOUR, ASSASSIN_COLOUR, BACK_COLOUR = "#8d8d8d", "#222222", "#6b5a45"
ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI")
OBJECTIVE_SHORT = {
    "tribune": "Tribune",
    "favor": "favor",
    "laurels": "laurels",
    "legions": "legions",
    "denarii": "denarii",
    "markers": "markers",
    "emperor_tiles": "emp. tiles",
    "patrons": "patrons",
}


def region_title(region: Region) -> str:
    """E.g. ``VIII Field of Mars``."""
    words = " ".join(w if w == "of" else w.capitalize() for w in region.key.split("_"))
    return f"{ROMAN[int(region)]} {words}"


def words(key: str) -> str:
    """An internal key in words: ``chariot_auction`` -> ``chariot auction``."""
    return key.replace("_", " ")


def text_colour(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (a ``#rrggbb`` colour)."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def player_name(seat: int, brutii: int = -1) -> str:
    return f"P{seat} (Brutii)" if seat == brutii else f"P{seat}"
