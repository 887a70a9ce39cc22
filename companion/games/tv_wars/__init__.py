"""TV Wars (Avalon Hill): the rules engine (rule numbers from ``rules/tv-wars.txt``).

* 2.4 every network starts with $31,000; 2.5 the highest roller gets Best Network News and starts (ties
  re-roll, see ``docs/rulings.md``).
* 2.3 each network enters its starting programming (:class:`SelectStartingProgramming`, ``setup.py``);
  until then its programming is a hand-kept half-hour count (the table-core mode, ``AdjustTrack``).
* Holdings (``holdings.py``): Program and Bonus tiles, the Inventory limits, the tile events; secret
  values stay out of :meth:`TvWars.view` and :meth:`TvWars.describe` (9.1), see :meth:`TvWars.private_view`.
* Full play, once every selection is in and the roll-off is over: turns clockwise; the spaces
  (:class:`LandOn`, ``spaces.py``: 3.1-3.22, 5.1-5.32, 6.3, 9.2-9.9); Bidding (``auction.py``, 4, 9.7);
  Bankruptcy, the asset count and the end of the game (``bankruptcy.py``: 7, 8, 3.11, 5.32, 1, 10).
* 9.5 On the Air (+$3,000, :class:`PassOnTheAir`) and 9.4 Sponsor (:class:`LandOnSponsor`, $500 per
  half-hour of Program tiles held, not the Preemption tile) and free-form transfers work in both modes.
* The Ratings War at the table is ``war_at_table.py`` (landing on a Ratings War space records
  ``ratings_war_called`` and leaves the landing open until the war's module closes it).

House-rule options (``options`` mapping): ``roll_off`` (bool, default ``True``; ``False`` gives Best
Network News to the first seat), ``starting_cash`` (int dollars, default 31,000, rule 2.4).
"""

from companion.games._lazy import lazy_exports

#: Where the package's public names are found, in order (imported on first use): the rules object and its
#: state, commands and events, then the rule parts.
__getattr__, __dir__ = lazy_exports(
    __name__,
    (
        "rules",
        "state",
        "commands",
        "events",
        "view",
        "legal",
        "holdings",
        "setup",
        "spaces",
        "auction",
        "bankruptcy",
        "war_at_table",
        "ratings_war",
        "tiles",
        "lineup_file",
        "bank",
    ),
)
