"""The Networks with the Telly Time module: cash ($M), viewers, seasons and the genre grid.

Specification: ``rules/the-networks-telly-time.txt`` (the module's rulebook; the base game's rulebook
is not available, so the base game is *tracked*, with its amounts entered as printed). Rule references
name the rulebook's sections, e.g. ``"Telly Time: Your Genre Grid"``.

Scope:

* Base game as a tracker: five seasons; turn order; each network's cash ($M) and viewers; the pass
  track reward (cash or viewers, entered as printed for the player count; cash at once, viewers when the
  lineup is scored); the shows in the four timeslots (the 4th, weekend, from the module); free entry of
  income, costs and viewers.
* Telly Time Pilot Season: the Pilot Season show, the tile with its genre in the centre (marker on the
  centre), the two kept stars/ads with their cash bonuses and costs.
* The genre grid: the first show of a genre fills its square; every completed row, column or diagonal
  gains its printed bonus (entered per tile); with the Moguls module the second line gives a mogul bonus.
* Every round: passing pays $1M per empty square; scoring adds +1 viewer per filled square; Preempted
  Timeslot doubles only the pass track's reward.
* Genres: Kids not in primetime or late night; Quiz buys up to 5 viewers at $1M; Chat gains the viewer
  values of the stars on the other shows; two-slot and ANY shows (the Pilot Season show too) take no
  timeslot penalty in their slots, wherever they are moved; Writeoff counts a Chat show with the other
  stars' bonus and a Quiz show without bonus viewers.
* End game: end-game viewer bonuses without the "Genres" row; most viewers wins (ties share).

House-rule and set-up options: ``INFO.options`` (:mod:`.info`). Rulings: ``docs/rulings-telly-time.md``.

Modules: :mod:`.info` (static facts), :mod:`.state` (plain data), :mod:`.grid` (the genre grid),
:mod:`.commands`, :mod:`.events` (typed events with their history lines), :mod:`.rules` (decide, evolve,
legal commands, outcome: :data:`TELLY_TIME`) and :mod:`.view` (status, public and private views, figures).
Every public name of these is importable from this package, each module imported on first use.
"""

from companion.games._lazy import lazy_exports

__getattr__, __dir__ = lazy_exports(__name__, ("rules", "commands", "events", "state", "grid", "view", "info"))
