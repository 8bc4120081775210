"""Colours, sizes and the words a person reads on the drawn board."""

from __future__ import annotations

from tribune_env.data import Faction, Nationality, Region

WIDTH, HEIGHT = 1600, 1000  # the SVG canvas (user units), the same for every game
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
PAPER, INK, LINE, BOX = "#f3ead7", "#2b2118", "#8a7556", "#fbf6ea"
EXPANSION_BOX = "#ece3d3"  # regions IX-XI
HIGHLIGHT = "#ff3d00"
HINT = "#66533e"  # quieter words (legend, tiles): WCAG AA contrast on the boxes and the emperor tiles
CARD_W, CARD_H = 30, 46
# A face-up card reads at a glance (R30): its fill is its faction's colour (grey: a slave, black: the assassin), its
# value is the largest text on it, top left (still seen where cards overlap), its kind a short word at the bottom
# (the faction, or the slave's nationality) and a glyph under the value for a leader or the assassin. The seven faction
# colours are seven hues apart (rust and raspberry, not two reds).
VALUE_SIZE = 22  # a one-digit value; two digits are drawn at VALUE_SIZE - 4 (on a board 900 pixels wide: >= 12 px)
KIND_SIZE = 9
LEADER_GLYPH, ASSASSIN_GLYPH = "♛", "†"  # both in DejaVu Sans, as on the legend

PLAYER_COLOURS = ("#d62728", "#1f5fbf", "#2ca02c", "#e6a700", "#8e44ad", "#17a2b8")
FACTION_COLOURS = {
    Faction.GLADIATORS: "#a64b17",
    Faction.LEGATES: "#3b6db3",
    Faction.PRAETORIANS: "#5b3f8c",
    Faction.PLEBEIANS: "#4a7f37",
    Faction.PATRICIANS: "#c99a1e",
    Faction.VESTALS: "#e6e0cf",
    Faction.SENATORS: "#a8285a",
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
SLAVE_SHORT = {Nationality.NUBIAN: "Nub", Nationality.GERMANIAN: "Ger", Nationality.GREEK: "Gre"}
SLAVE_COLOUR, ASSASSIN_COLOUR, BACK_COLOUR = "#687078", "#222222", "#6b5a45"
# Tiles: a favor of the emperor tile is gold with a dark band (its kind, a star, and its id); a patron tile brown.
EMPEROR_FILL, EMPEROR_BAND, EMPEROR_GLYPH = "#e8cf7d", "#6e5210", "★"
PATRON_FILL = "#6d4c2f"
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
