"""Channel WON: the Lineup of Leads, who reported what, the network's star rating and story scoring.

Scope (section names from ``rules/channel-won.txt``; rulings in ``docs/rulings-channel-won.md``):

* Setup: 2 players use four categories, 3-4 five, 5-6 all six; three Lead cards per chosen category,
  dealt as a stack per category, the top card of each stack being this round's Lead (the Lineup); five
  stars; each player three Reporter Tiles, a score of 0, a Pass Token (play side) and a Character whose
  once-per-game Reporter Power is tracked as used / unused.
* Phase 1: players collect one card per turn up to the hand limit of SEVEN (a face-up Location or Source,
  the row replenished from its deck, or a deck's top card); then Phase 2 starts. The decks, face-up rows,
  discard piles and each hand's card kinds are counted (Components: 6 Sources per category, 12 Locations,
  24 Inside Scoops); an empty Location or Source deck is made again from its discards, Inside Scoops never.
* Phase 2: one action per turn: play a Location (one per Lead, places a Reporter Tile), a Source of the
  Lead's category once it has its Location (a tile unless already there; three Leads per player), an
  Inside Scoop (Early Bird, Discredit, Final Touch, Star Witness, Security Footage, Library Archives),
  close a Lead, play a Bonus Source of another category on a closed Lead (no contributor credit), or pass
  (once per round). A player declares they are done; when every player is done the round is scored.
* End of round: every Lead's value (its breakdown as data); contributors move by it, never below 0; one
  star lost per unreported Lead; below one star the game ends at once (Channel None, everyone loses); the
  next round's order starts with the fewest points.
* Game end: after three rounds the most points wins; ties: most Leads reported in the final round; then
  co-anchors.

House-rule options: ``categories`` (the chosen categories), ``leads`` (printed Lead cards per category,
see :mod:`.cards`), ``characters`` (player name → Character name), ``first_player`` (who most recently
watched the news), ``score_open_leads`` (contributors of a Lead still open at round end score its value
too; default false) and ``next_round_order`` (``"clockwise"`` from the player with fewest points, the
default, or ``"fewest_points"`` for everyone sorted by points).


Layout: :mod:`.info` (the game's static facts and house-rule options, light), :mod:`.cards` (categories, Lead
cards, Characters, the card catalogue), :mod:`.state` (the state dataclasses and the rulebook's numbers),
:mod:`.commands` (what a reporter asks for, refusals, legal commands), :mod:`.events` (one typed event per
journal type), :mod:`.rules` (decide, evolve, legal commands, outcome: :data:`CHANNEL_WON`) and :mod:`.view`
(the public and private views, figures, the screens' words). A name is looked up in these modules in that
order, each imported on first use.
"""

from companion.games._lazy import lazy_exports

__getattr__, __dir__ = lazy_exports(__name__, ("rules", "commands", "state", "events", "view", "cards", "info"))
