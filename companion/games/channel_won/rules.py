"""The Channel WON rules object (:class:`companion.game.Game`): decide, evolve, describe, the views, legal commands and
outcome. The game's scope, rule by rule, is in the package's docstring (``companion/games/channel_won/__init__.py``)."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.checks import is_whole
from companion.commands import BANK, Command, EndGame, PlayerSeat, end_reason, end_words
from companion.dice import DiceRequest
from companion.errors import TABLE_RULE, BadOption, GameFinished, IllegalCommand, MalformedCommand
from companion.events import Event
from companion.game import Outcome, PrivateView, Termination
from companion.games import TableView
from companion.games.channel_won import view
from companion.games.channel_won.cards import (
    BONUS_VALUES,
    CATEGORIES,
    SOURCE_VALUES,
    LeadCard,
    category_named,
    character,
    lead_from_option,
    load_catalogue,
)
from companion.games.channel_won.commands import (
    ChannelWonMove,
    CloseLead,
    CollectCard,
    DeclareDone,
    Pass,
    PassOrDone,
    PlayLocation,
    PlayScoop,
    PlaySource,
    Refusal,
    UseAbility,
)
from companion.games.channel_won.events import (
    CODEC,
    AbilityUsed,
    CardCollected,
    ChannelWonEvent,
    DeckReshuffled,
    GameEnded,
    GameOver,
    LeadClosed,
    LeadScored,
    LocationPlayed,
    Passed,
    PlayerDone,
    RatingDropped,
    ReportingStarted,
    RoundStarted,
    RowReplaced,
    ScoopPlayed,
    ScoreMove,
    SourcePlayed,
)
from companion.games.channel_won.info import INFO
from companion.games.channel_won.state import (
    CATEGORY_COUNT,
    DISCREDIT_POINTS,
    FINAL_TOUCH_POINTS,
    HAND_LIMIT,
    INSIDE_SCOOP_CARDS,
    KIND_WORDS,
    KINDS,
    LEADS_PER_CATEGORY,
    R_BONUS,
    R_CHARACTERS,
    R_CLOSING,
    R_GAME_END,
    R_LOCATIONS,
    R_PASSING,
    R_PHASE1,
    R_PHASE2,
    R_PREPPING,
    R_RATINGS,
    R_ROUND_END,
    R_SCOOPS,
    R_SETUP,
    R_SOURCES,
    ROUNDS,
    ROW,
    SCOOPS,
    SECURITY_FOOTAGE,
    STAR_WITNESS_POINTS,
    ChannelWonState,
    Lead,
    LeadResult,
    Piles,
    Play,
    Reporter,
    RoundScoring,
    _replace_in,
)
from companion.words import with_article

_KIND_WORDS = {list: "a list", dict: "a table of names", str: "text", bool: "true or false"}


#: The Lead dialog's actions besides a Source, in the order offered: action -> label (an action other than
#: "location" and "close" is the Inside Scoop key).
LEAD_ACTIONS = {
    "location": "Location",
    "security_footage": "Security Footage (in place of a Location)",
    "star_witness": "Star Witness (+2 Source)",
    "close": "Close the Lead",
    "discredit": "Discredit (-2)",
    "final_touch": "Final Touch (+2)",
}


def read_catalogue_option(path: str) -> list[dict]:
    """The ``catalogue`` option read from a Lead catalogue file (format in :mod:`.cards`): one option dict per
    card. Raises :class:`companion.errors.CompanionError` for a file that cannot be read or parsed."""
    return [card.to_option() for card in load_catalogue(path)]


class ChannelWon:
    """The Channel WON rules (:class:`companion.game.Game`), registered as ``"channel-won"``. See the module
    docstring for the scope."""

    info = INFO
    events = CODEC
    #: Events after which the journal is backed up: the start of a round and the end of the game.
    safe_point_events = frozenset({RoundStarted.TYPE, GameOver.TYPE, GameEnded.TYPE})
    #: Raised when ``evolve`` gives other states for the same events (stored states are then rebuilt).
    state_version = 1

    # -- set-up -------------------------------------------------------------------------------------
    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Return the options with defaults filled in: every option of ``info.options`` (their kinds, defaults
        and choices), then what each needs beyond its kind.

        ``categories``: a list of distinct category names (``None``: chosen by player count, the first in
        rulebook order); ``leads``: ``{category: [three lead dicts]}`` (see :mod:`.cards`); ``characters``:
        ``{player: character name}``; ``first_player``: a name or ``""``; ``score_open_leads``: bool;
        ``next_round_order``: one of :data:`NEXT_ROUND_ORDERS`; ``catalogue``: a list of lead dicts. Raises
        :class:`BadOption` naming the option.
        """
        specs = {spec.name: spec for spec in self.info.options}
        for option in options:
            if option not in specs:
                raise BadOption(option, f"Channel WON has no such house rule; known: {', '.join(specs)}")
        checked = {name: copy.deepcopy(spec.default) for name, spec in specs.items()}
        checked.update(options)
        for name, spec in specs.items():  # the kind each option has (None: categories by player count)
            value = checked[name]
            if value is None and spec.default is None:
                continue
            if spec.kind is list:
                ok = isinstance(value, Sequence) and not isinstance(value, str)
            elif spec.kind is dict:
                ok = isinstance(value, Mapping)
            else:
                ok = isinstance(value, spec.kind)
            if not ok:
                raise BadOption(name, f"must be {_KIND_WORDS[spec.kind]}, not {value!r} ({spec.help})")
            if spec.choices and value not in spec.choices:
                raise BadOption(name, f"must be one of {', '.join(spec.choices)}, not {value!r}")
        categories = checked["categories"]
        if categories is not None:
            try:
                named = [category_named(c) for c in categories]
            except MalformedCommand as error:
                raise BadOption("categories", str(error)) from None
            if len(set(named)) != len(named):
                raise BadOption("categories", f"a category is named twice: {list(categories)}")
            checked["categories"] = [c for c in CATEGORIES if c in named]
        leads = checked["leads"]
        parsed = {}
        for name, cards in leads.items():
            try:
                category = category_named(name)
            except MalformedCommand as error:
                raise BadOption("leads", str(error)) from None
            if isinstance(cards, (str, Mapping)) or not isinstance(cards, Sequence) or len(cards) != LEADS_PER_CATEGORY:
                raise BadOption("leads", f"{category} needs a list of {LEADS_PER_CATEGORY} Lead cards (Setup)")
            try:
                cards = [lead_from_option(card, f"{category}[{i + 1}]") for i, card in enumerate(cards)]
            except MalformedCommand as error:
                raise BadOption("leads", str(error)) from None
            if any(card.category != category for card in cards):
                raise BadOption("leads", f"every card under {category} must be {with_article(category)} Lead")
            parsed[category] = [card.to_option() for card in cards]
        checked["leads"] = parsed
        catalogue = checked["catalogue"]
        try:
            checked["catalogue"] = [
                lead_from_option(card, f"catalogue[{i + 1}]").to_option() for i, card in enumerate(catalogue)
            ]
        except MalformedCommand as error:
            raise BadOption("catalogue", str(error)) from None
        characters = checked["characters"]
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in characters.items()):
            raise BadOption("characters", f"must map player names to Character names, not {characters!r}")
        if len(set(characters.values())) != len(characters):
            raise BadOption("characters", "each player selects a different Character Card (Setup)")
        return checked

    def new_game(self, players: Sequence[PlayerSeat], options: Mapping[str, Any]) -> ChannelWonState:
        """The state at Setup: the Lineup of each category's first Lead, five stars, three tiles, score 0,
        a Pass Token on its play side and an unused Character each; round 1, Phase 1, first player to collect.

        Raises :class:`IllegalCommand` for fewer than 2 or more than 6 players or the wrong number of
        categories (Setup), :class:`MalformedCommand` for empty or repeated names and :class:`BadOption`.
        """
        options = self.check_options(options)
        names = [seat.name for seat in players]
        if not self.info.min_players <= len(names) <= self.info.max_players:
            raise IllegalCommand(
                f"Channel WON is for 2 to 6 players, not {len(names)}",
                "Channel WON Components: 6 Pass Tokens, 24 Reporter Tiles (4 of each color)",
            )
        if any(not isinstance(n, str) or not n.strip() or n == BANK for n in names) or len(set(names)) != len(names):
            raise MalformedCommand(f"player names must be distinct and not empty: {names}")
        wanted = CATEGORY_COUNT[len(names)]
        categories = tuple(options["categories"] or CATEGORIES[:wanted])
        if len(categories) != wanted:
            raise IllegalCommand(
                f"a {len(names)}-player game uses {wanted} news categories, not {len(categories)}", R_SETUP
            )
        if options["catalogue"]:  # deal each category in play not given in `leads` from the catalogue (Setup)
            cards = [lead_from_option(card, "catalogue") for card in options["catalogue"]]
            dealt = {}
            for category in categories:
                if category not in options["leads"]:
                    stack = [c.to_option() for c in cards if c.category == category][:LEADS_PER_CATEGORY]
                    if stack:  # a short catalogue is topped up with blank Leads (values entered as played)
                        blank = LeadCard(category).to_option()
                        dealt[category] = stack + [blank] * (LEADS_PER_CATEGORY - len(stack))
            options = {**options, "leads": {**options["leads"], **dealt}}
        for name in options["leads"]:
            if name not in categories:
                raise BadOption("leads", f"{name} is not one of this game's categories ({', '.join(categories)})")
        for name in options["characters"]:
            if name not in names:
                raise BadOption("characters", f"{name!r} is not a player; players are {', '.join(names)}")
        first = options["first_player"] or names[0]
        if first not in names:
            raise BadOption("first_player", f"{first!r} is not a player; players are {', '.join(names)}")
        stacks = tuple(
            tuple(lead_from_option(card, category) for card in options["leads"][category])
            if category in options["leads"]
            else (LeadCard(category),) * LEADS_PER_CATEGORY
            for category in categories
        )
        reporters = tuple(
            Reporter(seat.name, seat.colour, character=options["characters"].get(seat.name, "")) for seat in players
        )
        start = names.index(first)
        order = tuple(names[start:] + names[:start])
        return ChannelWonState(
            reporters,
            categories,
            stacks,
            tuple(Lead(stack[0]) for stack in stacks),
            order=order,
            turn=order[0],
            score_open_leads=options["score_open_leads"],
            next_round_order=options["next_round_order"],
            piles=Piles.dealt(len(categories), INSIDE_SCOOP_CARDS, 0),
        )

    # -- decide ---------------------------------------------------------------------------------------------
    def decide(self, state: ChannelWonState, command: Command) -> list[ChannelWonEvent]:
        """Return the events ``command`` causes in ``state``, or raise a ``CommandError`` citing the rule.

        Refusals: :class:`GameFinished` after the end; :class:`MalformedCommand` for an unknown player,
        Lead, category, Inside Scoop or a value that is not a whole number; :class:`IllegalCommand` (with
        the rule) for everything the rulebook forbids. A refusal changes nothing.
        """
        if state.finished:
            raise GameFinished(f"the game is over ({state.end_reason}); undo to reopen it", TABLE_RULE)
        if isinstance(command, EndGame):
            return [GameEnded(reason=end_reason(command))]
        if isinstance(command, CollectCard):
            return self._collect(state, command)
        if isinstance(command, UseAbility):
            return self._ability(state, command)
        if isinstance(command, PassOrDone):
            reporter = state.reporter(command.player)
            if reporter.passed or state.phase != 2:
                return self.decide(state, DeclareDone(player=command.player, source=command.source))
            return self.decide(state, Pass(player=command.player, source=command.source))
        if isinstance(command, (PlayLocation, PlaySource, PlayScoop, CloseLead, Pass, DeclareDone)):
            return self._phase2(state, command)
        raise MalformedCommand(f"Channel WON has no command {type(command).__name__}")

    def _collect(self, state: ChannelWonState, command: CollectCard) -> list[ChannelWonEvent]:
        reporter = state.reporter(command.player)
        if state.phase != 1:
            raise Refusal(
                "Phase 2 has begun", "cards are collected in Phase 1; Phase 2 (reporting) has begun", R_PHASE1
            )
        if command.kind not in ("", "location", "source", "scoop"):
            raise MalformedCommand(f"a card is a location, source or scoop, not {command.kind!r}")
        if not isinstance(command.from_row, bool):
            raise MalformedCommand(f"from_row is true or false, not {command.from_row!r}")
        if reporter.hand >= HAND_LIMIT:
            raise Refusal("hand full", f"{reporter.name} already holds {HAND_LIMIT} cards, the hand limit", R_PHASE1)
        self._check_turn(state, reporter.name, R_PHASE1)
        events: list[ChannelWonEvent] = []
        if command.kind:
            events += self._draw_check(state, command.kind, command.from_row)
        hands = {r.name: r.hand for r in state.reporters}
        hands[reporter.name] += 1
        following = self._next_in_order(state, reporter.name, lambda name: hands[name] < HAND_LIMIT)
        events.append(
            CardCollected(
                player=reporter.name,
                kind=command.kind,
                from_row=command.from_row,
                hand=hands[reporter.name],
                next=following,
            )
        )
        if following is None:
            events.append(ReportingStarted(round=state.round, first=state.order[0]))
        return events

    @staticmethod
    def _draw_check(state: ChannelWonState, kind: str, from_row: bool) -> list[ChannelWonEvent]:
        """Phase 1: whether a ``kind`` card can be taken (``from_row``: face up, then the row is replenished from
        the deck; else the deck's top card); the :class:`DeckReshuffled` that must come first when the deck it
        needs is empty and has discards (ruling: decks). Raises :class:`Refusal` for an Inside Scoop from a row,
        an empty row or an empty deck without discards (Phase 1; Inside Scoop Cards: not shuffled back)."""
        word = KIND_WORDS[kind]
        piles = state.piles
        if from_row:
            if kind == "scoop":
                raise Refusal(
                    "no Inside Scoop row",
                    "Inside Scoops are drawn from their deck: only Locations and Sources have a face-up row",
                    R_PHASE1,
                )
            if piles.row(kind) < 1:
                raise Refusal("row empty", f"the face-up {word} row is empty", R_PHASE1)
        elif piles.deck(kind) < 1 and (kind == "scoop" or piles.discard(kind) < 1):
            if kind == "scoop":
                reason = "the Inside Scoop deck is empty; played and discarded Inside Scoops are not shuffled back"
                raise Refusal("deck empty", reason, R_SCOOPS)
            rows = f"; {piles.row(kind)} face up in the row" if piles.row(kind) else ""
            raise Refusal("deck empty", f"the {word} deck is empty and has no discards{rows}", R_PHASE1)
        if kind != "scoop" and piles.deck(kind) < 1 and piles.discard(kind) > 0:
            return [DeckReshuffled(deck=kind, cards=piles.discard(kind), rule=f"{R_PREPPING} (ruling: decks)")]
        return []

    def _ability(self, state: ChannelWonState, command: UseAbility) -> list[ChannelWonEvent]:
        reporter = state.reporter(command.player)
        card = character(reporter.character)
        if reporter.ability_used:
            raise Refusal(
                "used: once per game", f"{reporter.name} has used their Character's power: once per game", R_CHARACTERS
            )
        if card.phase is not None and card.phase != state.phase:
            raise Refusal(
                f"Phase {card.phase} only",
                f"{card.name}'s power is for Phase {card.phase}, not Phase {state.phase}",
                R_CHARACTERS,
            )
        self._check_turn(state, reporter.name, R_CHARACTERS)
        events: list[ChannelWonEvent] = [
            AbilityUsed(
                player=reporter.name,
                character=reporter.character,
                power=card.power,
                phase=state.phase,
                round=state.round,
            )
        ]
        if card.replaces_row:
            kind = card.replaces_row
            dealt = min(ROW, state.piles.deck(kind))
            events.append(RowReplaced(row=kind, discarded=state.piles.row(kind), dealt=dealt, rule=R_CHARACTERS))
        return events

    def _check_turn(self, state: ChannelWonState, name: str, rule: str) -> None:
        if state.turn != name:
            raise Refusal("not your turn", f"it is {state.turn}'s turn, not {name}'s", rule)

    @staticmethod
    def _next_in_order(state: ChannelWonState, name: str, eligible) -> str | None:
        """The first player after ``name`` in this round's order (wrapping, ``name`` last) who is ``eligible``."""
        order = state.order
        start = order.index(name)
        for step in range(1, len(order) + 1):
            candidate = order[(start + step) % len(order)]
            if eligible(candidate):
                return candidate
        return None

    def _after_action(self, state: ChannelWonState, name: str) -> str | None:
        done = {r.name for r in state.reporters if r.done}
        return self._next_in_order(state, name, lambda other: other not in done)

    def _phase2(
        self, state: ChannelWonState, command: PlayLocation | PlaySource | PlayScoop | CloseLead | Pass | DeclareDone
    ) -> list[ChannelWonEvent]:
        reporter = state.reporter(command.player)
        if state.phase != 2:
            raise Refusal("Phase 1 first", "Phase 1 first: every hand fills up to seven cards", R_PHASE1)
        if reporter.done:
            raise Refusal("done this round", f"{reporter.name} is done for this round", R_ROUND_END)
        if isinstance(command, PlayScoop) and command.scoop == "early_bird":
            return self._early_bird(state, reporter)
        self._check_turn(state, reporter.name, R_PHASE2)
        following = self._after_action(state, reporter.name)
        if isinstance(command, DeclareDone):
            return self._done(state, reporter)
        if isinstance(command, Pass):
            if reporter.passed:
                raise Refusal("passed already", f"{reporter.name} has passed already: one pass per round", R_PASSING)
            return [Passed(player=reporter.name, next=following)]
        if isinstance(command, CloseLead):
            lead = state.lead(command.lead)
            if lead.closed:
                raise Refusal("already closed", f"the {lead.category} Lead is already closed", R_CLOSING)
            return [LeadClosed(player=reporter.name, lead=lead.category, next=following)]
        if reporter.hand < 1:
            raise Refusal("no cards left", f"{reporter.name} has no cards left in hand", R_PHASE2)
        self._check_holds(reporter, played_kind(command))
        if isinstance(command, PlayLocation):
            return [self._location(state, reporter, state.lead(command.lead), command.location, following)]
        if isinstance(command, PlaySource):
            played = self._source(state, reporter, command, following)
            if not command.from_archives:
                return [played]
            return self._archives_check(state) + [played]
        return [self._scoop(state, reporter, command, following)]

    @staticmethod
    def _check_holds(reporter: Reporter, kind: str) -> None:
        """Refuse a play of a ``kind`` card the hand is known not to hold (Phase 2: "from their hand")."""
        if reporter.holding(kind) < 1 and reporter.unknown < 1:
            word = KIND_WORDS[kind]
            raise Refusal(
                f"no {word} in hand", f"{reporter.name} holds no {word} card ({reporter.kinds_text()})", R_PHASE2
            )

    @staticmethod
    def _archives_check(state: ChannelWonState) -> list[ChannelWonEvent]:
        """Library Archives takes a card from the face-up Source row, then the row is replenished from the deck:
        refused with the row empty; a :class:`DeckReshuffled` first when the deck is empty and has discards."""
        piles = state.piles
        if piles.source_row < 1:
            raise Refusal("Source row empty", "the face-up Source row is empty", "Channel WON Library Archives")
        if piles.source_deck < 1 and piles.source_discard > 0:
            return [DeckReshuffled(deck="source", cards=piles.source_discard, rule=f"{R_PREPPING} (ruling: decks)")]
        return []

    def _early_bird(self, state: ChannelWonState, reporter: Reporter) -> list[ChannelWonEvent]:
        if reporter.hand < 1:
            raise Refusal("no cards left", f"{reporter.name} has no cards left in hand", R_PHASE2)
        self._check_holds(reporter, "scoop")
        if state.last_actor != reporter.name:
            last = f"the last action was {state.last_actor}'s" if state.last_actor else "no action was just taken"
            raise Refusal(
                "after your own action",
                f"Early Bird comes right after your own action; {last}",
                "Channel WON Early Bird",
            )
        return [ScoopPlayed(player=reporter.name, scoop="early_bird", lead="", points=0, next=reporter.name)]

    def _done(self, state: ChannelWonState, reporter: Reporter) -> list[ChannelWonEvent]:
        after = replace(
            state, reporters=tuple(replace(r, done=True) if r.name == reporter.name else r for r in state.reporters)
        )
        following = self._after_action(after, reporter.name)
        events: list[ChannelWonEvent] = [PlayerDone(player=reporter.name, passed=reporter.passed, next=following)]
        if following is None:
            events += self._end_of_round(after)
        return events

    def _new_contributor(self, state: ChannelWonState, reporter: Reporter, lead: Lead, rule: str) -> bool:
        if reporter.name in lead.contributors:
            return False
        if state.tiles_left(reporter.name) < 1:
            on = ", ".join(l.category for l in state.leads_of(reporter.name))
            raise Refusal(
                "no tile left", f"{reporter.name} already reports on three Leads ({on}): no Reporter Tile left", rule
            )
        return True

    def _location(self, state, reporter, lead: Lead, location: Any, following, scoop: bool = False) -> ChannelWonEvent:
        rule = "Channel WON Security Footage" if scoop else R_LOCATIONS
        if not isinstance(location, str):
            raise MalformedCommand(f"a Location is named in text, not {location!r}")
        if lead.location is not None:
            raise Refusal(
                "has its Location", f"the {lead.category} Lead has its Location already: one per Lead", R_LOCATIONS
            )
        if lead.closed:
            raise Refusal("Lead is closed", f"the {lead.category} Lead is closed: no more contributors", R_CLOSING)
        needed = lead.card.location
        location = location.strip()
        if not scoop and needed and location and location.casefold() != needed.casefold():
            raise Refusal(
                "another Location", f"the {lead.category} Lead needs the {needed} Location, not {location}", R_LOCATIONS
            )
        self._new_contributor(state, reporter, lead, rule)
        name = SECURITY_FOOTAGE if scoop else (location or needed)
        return LocationPlayed(player=reporter.name, lead=lead.category, location=name, scoop=scoop, next=following)

    def _source(self, state, reporter, command: PlaySource, following) -> ChannelWonEvent:
        lead = state.lead(command.lead)
        category = category_named(command.category, state.categories) if command.category else lead.category
        if not isinstance(command.source_type, str) or not isinstance(command.from_archives, bool):
            raise MalformedCommand("source_type is text and from_archives is true or false")
        source_type = command.source_type.strip()
        bonus = category != lead.category
        value = command.value
        if value is None:
            value = lead.card.bonus_value(category) if bonus else lead.card.source_value(source_type)
            if value is None:
                what = f"the {category} Bonus Source" if bonus else f"the {source_type or 'Source'}"
                raise MalformedCommand(f"enter the points the {lead.category} Lead prints for {what}")
        allowed = BONUS_VALUES if bonus else SOURCE_VALUES
        if not is_whole(value) or value not in allowed:
            raise MalformedCommand(
                f"a {'Bonus Source' if bonus else 'Source'} is worth a whole number from "
                f"{allowed.start} to {allowed.stop - 1} points, not {value!r}"
            )
        via = "Channel WON Library Archives; " if command.from_archives else ""
        if bonus:
            if not lead.closed:
                raise Refusal(
                    "closed Leads only",
                    f"{with_article(category)} Source is a Bonus Source on {lead.category}: only once it is closed",
                    via + R_BONUS,
                )
            listed = [c for c, _ in lead.card.bonus]
            if listed and category not in listed:
                raise Refusal(
                    "no such Bonus here",
                    f"the {lead.category} Lead takes Bonus Sources of {', '.join(listed)} only",
                    via + R_BONUS,
                )
            new = False
        else:
            if lead.closed:
                raise Refusal(
                    "Lead is closed",
                    f"the {lead.category} Lead is closed: no more contributors or {lead.category} Sources",
                    via + R_CLOSING,
                )
            if lead.location is None:
                raise Refusal(
                    "needs its Location",
                    f"the {lead.category} Lead has no Location yet: no Source before it",
                    via + R_LOCATIONS,
                )
            new = self._new_contributor(state, reporter, lead, via + R_SOURCES)
        return SourcePlayed(
            player=reporter.name,
            lead=lead.category,
            category=category,
            source_type=source_type,
            points=value,
            bonus=bonus,
            from_archives=command.from_archives,
            new_contributor=new,
            next=following,
        )

    def _scoop(self, state, reporter, command: PlayScoop, following) -> ChannelWonEvent:
        if command.scoop not in SCOOPS:
            raise MalformedCommand(
                f"no Inside Scoop {command.scoop!r}; Inside Scoops: {', '.join(SCOOPS)}, "
                f"and Library Archives (a Source played from the face-up row)"
            )
        lead = state.lead(command.lead)
        title = SCOOPS[command.scoop]
        rule = f"Channel WON {title}"
        if command.scoop == "security_footage":
            return self._location(state, reporter, lead, SECURITY_FOOTAGE, following, scoop=True)
        if command.scoop in ("discredit", "final_touch"):
            if not lead.closed:
                raise Refusal(
                    "closed Leads only", f"{title} is for closed Leads only; the {lead.category} Lead is open", rule
                )
            points = DISCREDIT_POINTS if command.scoop == "discredit" else FINAL_TOUCH_POINTS
            return ScoopPlayed(
                player=reporter.name,
                scoop=command.scoop,
                lead=lead.category,
                points=points,
                new_contributor=False,
                next=following,
            )
        # star_witness: a 2-point Source of the Lead's category, on an open Lead that has its Location
        if lead.closed:
            raise Refusal(
                "Lead is closed", f"Star Witness is for open Leads only; the {lead.category} Lead is closed", rule
            )
        if lead.location is None:
            raise Refusal(
                "needs its Location",
                f"Star Witness is a Source: the {lead.category} Lead has no Location yet",
                f"{rule}; {R_LOCATIONS}",
            )
        new = self._new_contributor(state, reporter, lead, f"{rule}; {R_SOURCES}")
        return ScoopPlayed(
            player=reporter.name,
            scoop="star_witness",
            lead=lead.category,
            points=STAR_WITNESS_POINTS,
            new_contributor=new,
            next=following,
        )

    # -- end of round -----------------------------------------------------------------------------------
    def _end_of_round(self, state: ChannelWonState) -> list[ChannelWonEvent]:
        """Score every Lead, drop the stars, then start the next round or end the game (End of Round)."""
        events: list[ChannelWonEvent] = []
        scores = dict(state.scores)
        reported = {name: 0 for name in state.names}
        unreported: list[tuple[Lead, str]] = []
        for lead in state.lineup:
            counts = (lead.closed or state.score_open_leads) and lead.sourced
            unscored = "" if counts else ("no Source" if lead.closed or state.score_open_leads else "not closed")
            moves = []
            if counts:
                for name in lead.contributors:
                    before = scores[name]
                    after = max(0, before + lead.value)
                    scores[name] = after
                    moves.append(ScoreMove(name, before, after, before + lead.value < 0))
            why = lead.why_unreported()
            if not why:
                for name in lead.contributors:
                    reported[name] += 1
            else:
                unreported.append((lead, why))
            events.append(
                LeadScored(
                    round=state.round,
                    lead=lead.category,
                    headline=lead.card.headline,
                    value=lead.value,
                    parts=tuple((label, points) for label, points in lead.breakdown()),
                    reported=not why,
                    why=why,
                    scored=counts,
                    unscored=unscored,
                    moves=tuple(moves),
                    contributors=lead.contributors,
                    rule=R_ROUND_END,
                )
            )
        stars = state.stars
        for lead, why in unreported:
            stars = max(0, stars - 1)  # the five Ratings Tracker Tokens run out at 0
            events.append(RatingDropped(lead=lead.category, why=why, stars=stars, rule=R_RATINGS))
        last_round = tuple((name, reported[name]) for name in state.names)
        if stars < 1:
            events.append(
                GameOver(
                    result="channel_none",
                    winners=(),
                    scores=scores,
                    round=state.round,
                    reported=last_round,
                    reason="the Network Rating fell below one star: Channel WON became Channel None and everyone loses",
                    rule=R_RATINGS,
                )
            )
        elif state.round == ROUNDS:
            events.append(self._final(state, scores, reported, last_round))
        else:
            events.append(
                RoundStarted(
                    round=state.round + 1,
                    order=self._next_order(state, scores),
                    reported=last_round,
                    rule=R_ROUND_END,
                )
            )
        return events

    def _next_order(self, state: ChannelWonState, scores: Mapping[str, int]) -> tuple[str, ...]:
        """Prepping the Next Round: fewest points first, a tie going to the earlier in the previous order;
        then clockwise (seat order) from them, or everyone by points under ``next_round_order="fewest_points"``."""
        ranked = sorted(state.order, key=lambda name: (scores[name], state.order.index(name)))
        if state.next_round_order == "fewest_points":
            return tuple(ranked)
        names = list(state.names)
        start = names.index(ranked[0])
        return tuple(names[start:] + names[:start])

    def _final(self, state, scores, reported, last_round) -> ChannelWonEvent:
        best = max(scores.values())
        leaders = [name for name in state.names if scores[name] == best]
        tiebreak = ""
        if len(leaders) > 1:
            most = max(reported[name] for name in leaders)
            still = [name for name in leaders if reported[name] == most]
            tiebreak = f"tied on {best} points; most Leads reported in the final round: " + ", ".join(
                f"{name} {reported[name]}" for name in leaders
            )
            leaders = still
        if len(leaders) == 1:
            result, reason = "won", f"{leaders[0]} wins with {best} points"
        else:
            result, reason = (
                "co_anchors",
                f"{' and '.join(leaders)} share the anchor desk as co-anchors ({best} points)",
            )
        return GameOver(
            result=result,
            winners=tuple(leaders),
            scores=scores,
            round=state.round,
            reported=last_round,
            tiebreak=tiebreak,
            reason=reason,
            rule=R_GAME_END,
        )

    # -- evolve ---------------------------------------------------------------------------------------------
    def evolve(self, state: ChannelWonState, event: Event) -> ChannelWonState:
        """Fold one event into the state (pure; events were checked when they were decided), by the event's
        class (:data:`FOLDS`). Raises ``ValueError`` for an event that is not Channel WON's."""
        fold = FOLDS.get(type(event))
        if fold is None:
            raise ValueError(f"Channel WON cannot apply an event of type {event.type!r}")
        return fold(state, event)

    # -- describing -----------------------------------------------------------------------------------------
    def describe(self, event: Event) -> str:
        """One readable line per event (each event class says it), e.g. ``"Sports Lead 1 = 2 Coach - 1 Business
        bonus: reported; Ava 0 → 1"``."""
        if isinstance(event, ChannelWonEvent):
            return event.describe()
        return f"{event.type} {dict(event.payload)}"

    # -- buttons, dice, finish ------------------------------------------------------------------------------
    def button_command(self, action: str, player: str, source: str = "button") -> Command:
        """The command a seat button stands for: ``on_the_air`` → :class:`CollectCard` (Phase 1),
        ``sponsor`` → :class:`PassOrDone` (Phase 2), ``roll`` → :class:`~companion.commands.RollDice` (Channel
        WON asks for no dice, so the table refuses it). Raises :class:`MalformedCommand` for another action."""
        from companion.commands import RollDice

        if action == "on_the_air":
            return CollectCard(player=player, source=source)
        if action == "sponsor":
            return PassOrDone(player=player, source=source)
        if action == "roll":
            return RollDice(roller=player, source=source)
        raise MalformedCommand(
            f"Channel WON has no button action {action!r}; actions: {', '.join(b.action for b in self.info.buttons)}"
        )

    def pending_dice(self, state: ChannelWonState) -> DiceRequest | None:
        """Always ``None``: Channel WON uses no dice."""
        return None

    # -- views ------------------------------------------------------------------------------------------------
    # -- views ------------------------------------------------------------------------------------------------
    def warning(self, state: ChannelWonState) -> str:
        """The early Channel None warning, or ``""`` (:func:`.view.warning`)."""
        return view.warning(state)

    def status(self, state: ChannelWonState) -> str:
        """The status line (:func:`.view.status`)."""
        return view.status(state)

    def public_view(self, state: ChannelWonState) -> TableView:
        """The public picture: all of Channel WON is public (scores, the Lineup, tokens, hand counts;
        :func:`.view.public_view`)."""
        return view.public_view(state)

    def private_view(self, state: ChannelWonState, seat: str) -> PrivateView:
        """What ``seat``'s own panel and phone show (:func:`.view.private_view`); raises
        :class:`MalformedCommand` for an unknown seat."""
        return view.private_view(state, seat)

    def figures(self, state: ChannelWonState) -> dict[str, dict[str, int | str]]:
        """Each reporter's figures now, in seat order (:func:`.view.figures`)."""
        return view.figures(state)

    def legal_commands(self, state: ChannelWonState, seat: str) -> tuple[ChannelWonMove, ...]:
        """What ``seat`` may do now, as :class:`ChannelWonMove` entries: in Phase 1 collect a Location, Source or
        Inside Scoop card from its deck (``"collect"``) or a face-up Location or Source (``"collect_row"``) and
        use the Reporter Power; in Phase 2 the power, pass, be done, Early Bird, and on each
        Lead of the Lineup its Location, Security Footage, Star Witness, closing it, Discredit, Final Touch, a
        Source of its category and a Bonus Source of each other category in play (``command`` is ``None`` for
        the Sources: the player enters the printed value). Each is asked of :meth:`decide` itself (which is
        pure), so what is offered is exactly what it accepts: a forbidden one is ``enabled=False`` with the
        refusal's ``reason``, its ``rule`` and a ``short`` reason. Empty once the game is over. Raises
        :class:`MalformedCommand` for an unknown seat."""
        state.reporter(seat)
        if state.finished:
            return ()
        moves: list[ChannelWonMove] = []

        def offer(command: Command, label: str, action: str, *, lead: str = "", category: str = "") -> None:
            complete = action != "source"
            try:
                self.decide(state, command)
            except IllegalCommand as error:
                short = error.short if isinstance(error, Refusal) else error.reason
                moves.append(
                    ChannelWonMove(
                        type(command).__name__,
                        label,
                        command if complete else None,
                        False,
                        error.reason,
                        error.rule or "",
                        action=action,
                        lead=lead,
                        category=category,
                        short=short,
                    )
                )
            else:
                moves.append(
                    ChannelWonMove(
                        type(command).__name__,
                        label,
                        command if complete else None,
                        action=action,
                        lead=lead,
                        category=category,
                    )
                )

        if state.phase == 1:
            for kind, word in (("location", "a Location"), ("source", "a Source"), ("scoop", "an Inside Scoop")):
                offer(CollectCard(player=seat, kind=kind), f"Collect {word}", "collect", category=kind)
            for kind, word in (("location", "Location"), ("source", "Source")):
                face_up = CollectCard(player=seat, kind=kind, from_row=True)
                offer(face_up, f"Collect a face-up {word}", "collect_row", category=kind)
        offer(UseAbility(player=seat), "Use the Reporter Power", "ability")
        if state.phase == 1:
            return tuple(moves)
        offer(Pass(player=seat), "Pass", "pass")
        offer(DeclareDone(player=seat), "Done for the round", "done")
        offer(PlayScoop(player=seat, scoop="early_bird"), "Early Bird (another action)", "early_bird")
        for lead in state.lineup:
            where = lead.category
            for action, label in LEAD_ACTIONS.items():
                if action == "location":
                    command: Command = PlayLocation(player=seat, lead=where)
                elif action == "close":
                    command = CloseLead(player=seat, lead=where)
                else:
                    command = PlayScoop(player=seat, scoop=action, lead=where)
                offer(command, f"{label} on {where}", action, lead=where)
            for category in state.categories:
                bonus = category != where
                sample = 1  # any printed value the rules accept: legality does not depend on it
                command = PlaySource(player=seat, lead=where, value=sample, category=category if bonus else "")
                label = f"{category} Bonus Source on {where}" if bonus else f"{where} Source"
                offer(command, label, "source", lead=where, category=category)
        return tuple(moves)

    def outcome(self, state: ChannelWonState) -> Outcome | None:
        """How the game came out (``None`` while it is played): after three rounds the most points wins, a tie
        going to the most Leads reported in the final round, then co-anchors (Ending the Game; Termination
        ``WON`` with one or several winners); Channel None when the rating fell below one star, everyone loses
        (Network Ratings; ``ALL_LOST``); or ended at the table (``ENDED_BY_HAND``). ``ranking``: points, then
        Leads reported in the final round (seat order for a tie), for a game the rules scored."""
        if not state.finished:
            return None
        figures = self.figures(state)
        if state.result == "ended":
            return Outcome(Termination.ENDED_BY_HAND, (), figures, f"ended at the table{end_words(state.end_reason)}")
        if state.result == "channel_none":
            return Outcome(Termination.ALL_LOST, (), figures, f"{state.end_reason} ({R_RATINGS})")
        reported = dict(state.last_round)
        ranking = sorted(state.names, key=lambda name: (-state.reporter(name).score, -reported.get(name, 0)))
        best = state.reporter(ranking[0]).score
        tied = [name for name in state.names if state.reporter(name).score == best]
        reason = f"{state.end_reason} ({R_GAME_END})"
        if len(tied) > 1:
            counts = ", ".join(f"{name} {reported.get(name, 0)}" for name in tied)
            reason += f"; tied on {best} points, most Leads reported in the final round: {counts}"
        return Outcome(Termination.WON, state.winners, figures, reason, tuple(ranking))


# -- folding events into the state (one function per event class) ----------------------------------------------


def _with_reporter(state: ChannelWonState, name: str, **changes: Any) -> ChannelWonState:
    return replace(state, reporters=tuple(replace(r, **changes) if r.name == name else r for r in state.reporters))


def _on_lead(state: ChannelWonState, category: str, change: Callable[[Lead], Lead]) -> ChannelWonState:
    index = state.categories.index(category)
    return replace(state, lineup=_replace_in(state.lineup, index, change(state.lineup[index])))


def played_kind(command: Command) -> str:
    """The kind of card (:data:`KINDS`) a Phase 2 play takes from the hand: a Location, a Source, or an Inside
    Scoop (every :class:`PlayScoop`, and a Source played with Library Archives: its Source is from the row)."""
    if isinstance(command, PlayLocation):
        return "location"
    if isinstance(command, PlaySource) and not command.from_archives:
        return "source"
    return "scoop"


def _from_pile(piles: Piles, kind: str, from_row: bool) -> Piles:
    """``piles`` after one ``kind`` card is taken: face up from its row, which is replenished from the deck
    (up to five, while the deck has cards), or the deck's top card (Phase 1; Library Archives). A pile never
    shows below 0."""
    if from_row and kind != "scoop":
        piles = piles.moved(**{f"{kind}_row": -1 if piles.row(kind) > 0 else 0})
        refill = min(ROW - piles.row(kind), piles.deck(kind))  # back to five while the deck has cards
        return piles.moved(**{f"{kind}_deck": -refill, f"{kind}_row": refill})
    return piles.moved(**{f"{kind}_deck": -1 if piles.deck(kind) > 0 else 0})


def _hand_less(reporter: Reporter, kind: str) -> dict[str, int]:
    """The changes to ``reporter`` for one ``kind`` card leaving the hand (one of kind not said, when none
    of that kind is known)."""
    changes = {"hand": reporter.hand - 1}
    if reporter.holding(kind) > 0:
        changes[f"{kind}s"] = reporter.holding(kind) - 1
    return changes


def _card_collected(state: ChannelWonState, event: CardCollected) -> ChannelWonState:
    changes: dict[str, Any] = {"hand": event.hand}
    if event.kind in KINDS:
        changes[f"{event.kind}s"] = state.reporter(event.player).holding(event.kind) + 1
        state = replace(state, piles=_from_pile(state.piles, event.kind, event.from_row))
    state = _with_reporter(state, event.player, **changes)
    return replace(state, turn=event.next or state.turn, acted=True)


def _deck_reshuffled(state: ChannelWonState, event: DeckReshuffled) -> ChannelWonState:
    """The discards become the deck (the row is topped up from it when a face-up card is next taken)."""
    kind = event.deck
    return replace(state, piles=state.piles.moved(**{f"{kind}_deck": event.cards, f"{kind}_discard": -event.cards}))


def _row_replaced(state: ChannelWonState, event: RowReplaced) -> ChannelWonState:
    kind = event.row
    piles = state.piles.moved(
        **{
            f"{kind}_row": event.dealt - event.discarded,
            f"{kind}_discard": event.discarded,
            f"{kind}_deck": -event.dealt,
        }
    )
    return replace(state, piles=piles)


def _reporting_started(state: ChannelWonState, event: ReportingStarted) -> ChannelWonState:
    return replace(state, phase=2, turn=event.first, last_actor=None)


def _ability_used(state: ChannelWonState, event: AbilityUsed) -> ChannelWonState:
    return _with_reporter(state, event.player, ability_used=True)


def _acted(state: ChannelWonState, player: str, following: str | None, card: str = "") -> ChannelWonState:
    """After a Phase 2 action of ``player``: one ``card`` (a kind, ``""``: none) fewer in hand (an Inside Scoop
    goes to its discard pile: "After Inside Scoops are played ... they are added to a discard pile"), the turn
    to ``following``."""
    if card:
        state = _with_reporter(state, player, **_hand_less(state.reporter(player), card))
    if card == "scoop":
        state = replace(state, piles=state.piles.moved(scoop_discard=1))
    return replace(state, turn=following, last_actor=player, acted=True)


def _location_played(state: ChannelWonState, event: LocationPlayed) -> ChannelWonState:
    state = _on_lead(
        state,
        event.lead,
        lambda lead: replace(lead, location=event.location, contributors=lead.contributors + (event.player,)),
    )
    return _acted(state, event.player, event.next, "scoop" if event.scoop else "location")


def _add_play(event: SourcePlayed | ScoopPlayed, play: Play) -> Callable[[Lead], Lead]:
    def change(lead: Lead) -> Lead:
        lead = replace(lead, plays=lead.plays + (play,))
        if event.new_contributor:
            lead = replace(lead, contributors=lead.contributors + (event.player,))
        return lead

    return change


def _source_played(state: ChannelWonState, event: SourcePlayed) -> ChannelWonState:
    if event.bonus:
        play = Play(f"{event.category} bonus", "bonus", event.points, event.player)
    else:
        play = Play(event.source_type or f"{event.category} Source", "source", event.points, event.player)
    state = _on_lead(state, event.lead, _add_play(event, play))
    if event.from_archives:  # the Source comes from the face-up row, the hand gives the Inside Scoop
        state = replace(state, piles=_from_pile(state.piles, "source", True))
        return _acted(state, event.player, event.next, "scoop")
    return _acted(state, event.player, event.next, "source")


def _scoop_played(state: ChannelWonState, event: ScoopPlayed) -> ChannelWonState:
    if event.scoop == "early_bird":  # the card is spent; the turn comes back and is nobody's "last action"
        state = _acted(state, event.player, event.next, "scoop")
        return replace(state, last_actor=None)
    play = Play(SCOOPS[event.scoop], event.scoop, event.points, event.player)
    return _acted(_on_lead(state, event.lead, _add_play(event, play)), event.player, event.next, "scoop")


def _lead_closed(state: ChannelWonState, event: LeadClosed) -> ChannelWonState:
    state = _on_lead(state, event.lead, lambda lead: replace(lead, closed=True))
    return _acted(state, event.player, event.next)


def _passed(state: ChannelWonState, event: Passed) -> ChannelWonState:
    return _acted(_with_reporter(state, event.player, passed=True), event.player, event.next)


def _player_done(state: ChannelWonState, event: PlayerDone) -> ChannelWonState:
    state = _with_reporter(state, event.player, done=True)
    return replace(state, turn=event.next, last_actor=None, acted=True)


def _lead_scored(state: ChannelWonState, event: LeadScored) -> ChannelWonState:
    """The contributors' new scores, and the Lead added to the round's :class:`RoundScoring` (the first Lead
    of a round starts a new record)."""
    after = {move.player: move.after for move in event.moves}
    reporters = tuple(replace(r, score=after[r.name]) if r.name in after else r for r in state.reporters)
    scoring = state.scoring
    if scoring is None or scoring.round != event.round:
        scoring = RoundScoring(event.round, state.stars, state.stars)
    result = LeadResult(
        event.lead,
        event.headline,
        event.value,
        event.parts,
        event.reported,
        event.why,
        event.contributors_scored,
        event.unscored,
        tuple((m.player, m.before, m.after, m.floored) for m in event.moves),
        event.contributors,
    )
    return replace(state, reporters=reporters, scoring=replace(scoring, leads=scoring.leads + (result,)))


def _rating_dropped(state: ChannelWonState, event: RatingDropped) -> ChannelWonState:
    scoring = state.scoring
    if scoring is not None:
        scoring = replace(scoring, stars=event.stars, stars_lost=scoring.stars_lost + ((event.lead, event.why),))
    return replace(state, stars=event.stars, scoring=scoring)


def _round_started(state: ChannelWonState, event: RoundStarted) -> ChannelWonState:
    number = event.round
    scoring = state.scoring and replace(state.scoring, next_order=event.order)
    return replace(
        state,
        round=number,
        phase=1,
        order=event.order,
        turn=event.order[0],
        last_actor=None,
        lineup=tuple(Lead(stack[number - 1]) for stack in state.stacks),
        reporters=tuple(
            replace(r, hand=0, passed=False, done=False, locations=0, sources=0, scoops=0) for r in state.reporters
        ),
        piles=_prepped(state),
        last_round=event.reported,
        scoring=scoring,
        acted=False,
    )


def _prepped(state: ChannelWonState) -> Piles:
    """The piles for the next round (End of Round, Prepping the Next Round): the hands' Inside Scoops join
    the Inside Scoop discards (not shuffled back); every Source and Location card is shuffled into its deck
    and five of each flipped up."""
    piles = state.piles
    held = sum(r.scoops for r in state.reporters)
    return Piles.dealt(len(state.categories), piles.scoop_deck, piles.scoop_discard + held)


def _game_over(state: ChannelWonState, event: GameOver) -> ChannelWonState:
    scoring = state.scoring and replace(state.scoring, outcome=event.reason)
    return replace(
        state,
        result=event.result,
        winners=event.winners,
        turn=None,
        end_reason=event.reason,
        scoring=scoring,
        acted=False,
        last_round=event.reported,
    )


def _game_ended(state: ChannelWonState, event: GameEnded) -> ChannelWonState:
    return replace(state, result="ended", turn=None, end_reason=event.reason)


#: How each event class folds into the state (:meth:`ChannelWon.evolve`).
FOLDS: dict[type[Event], Callable[[ChannelWonState, Any], ChannelWonState]] = {
    CardCollected: _card_collected,
    ReportingStarted: _reporting_started,
    AbilityUsed: _ability_used,
    LocationPlayed: _location_played,
    SourcePlayed: _source_played,
    ScoopPlayed: _scoop_played,
    LeadClosed: _lead_closed,
    Passed: _passed,
    PlayerDone: _player_done,
    LeadScored: _lead_scored,
    RatingDropped: _rating_dropped,
    RoundStarted: _round_started,
    GameOver: _game_over,
    GameEnded: _game_ended,
    DeckReshuffled: _deck_reshuffled,
    RowReplaced: _row_replaced,
}

CHANNEL_WON = ChannelWon()

__all__ = ["CHANNEL_WON", "ChannelWon", "FOLDS", "LEAD_ACTIONS", "read_catalogue_option"]
