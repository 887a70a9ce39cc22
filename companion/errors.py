"""The project's one error tree.

Every error the companion raises on purpose derives from :class:`CompanionError`. Like gpiozero's
``exc.py``, members also inherit the matching builtin, so callers can catch ``ValueError`` or the
project's own class. Every refusal (:class:`CommandError`) carries the rule it applies and cites it at the end
of its message: a game's rule (``rule="TV Wars 9.4"``: "... (TV Wars 9.4)") or, for the companion's own rules
(a badly formed command, nothing to undo, no game open), :data:`TABLE_RULE`: "... (table rule)".
"""

from __future__ import annotations

import re

#: The citation of a refusal by the companion's own rules rather than a rulebook's.
TABLE_RULE = "table rule"


class CompanionError(Exception):
    """Base class of every error Tabletop Companion raises deliberately."""


class ConfigError(CompanionError, ValueError):
    """A configuration file is unreadable or wrong.

    Attributes: ``file`` (path or ``"<defaults>"``), ``key`` (dotted key such as ``players[2].colour``,
    or ``""`` for the whole file) and ``problem`` (what is wrong, in words).
    """

    def __init__(self, file: str, key: str, problem: str) -> None:
        self.file, self.key, self.problem = str(file), key, problem
        where = f"{self.file}: {key}" if key else self.file
        super().__init__(f"{where}: {problem}")


class CommandError(CompanionError, ValueError):
    """A command was refused; the table's state is unchanged. Base of all refusals.

    ``reason`` says why, ``rule`` which rule (a rulebook's, or :data:`TABLE_RULE`); the message is
    ``"{reason} ({rule})"``. A reason that already ends with its citation ("... (TV Wars 2.3)") is not cited
    twice: its ``rule`` is read from it."""

    #: The rule cited when none is given (the companion's own, unless a subclass says otherwise).
    default_rule: str | None = TABLE_RULE

    def __init__(self, reason: str, rule: str | None = None) -> None:
        reason = str(reason)
        cited = _CITED.search(reason)
        if rule is None and cited is not None:
            reason, rule = reason[: cited.start()], cited.group(1)
        elif rule is None:
            rule = self.default_rule
        self.reason, self.rule = reason, rule
        super().__init__(f"{reason} ({rule})" if rule else reason)


class MalformedCommand(CommandError):
    """The command is badly formed: a negative amount, an unknown player, a wrong type of value."""


class BadOption(MalformedCommand):
    """A game option (house rule) is unknown or has a wrong value; ``option`` names it."""

    def __init__(self, option: str, problem: str) -> None:
        self.option, self.problem = option, problem
        super().__init__(f"{option}: {problem}")


class IllegalCommand(CommandError):
    """The command is well formed but a rule forbids it.

    ``rule`` names the rule (for example ``"TV Wars 4"``); the message says why.
    """

    #: A rule violation names its rule; none given is a bug that the refusal audit (``tests/``) reports.
    default_rule = None


class InsufficientFunds(IllegalCommand):
    """A payment larger than the payer's balance (the games' own debt rules come later)."""


class GameFinished(IllegalCommand):
    """A command other than undo arrived for a game that has ended."""


class NoGameOpen(CommandError):
    """A game command arrived while no game is open on the table."""


class NothingToUndo(CommandError):
    """Undo was asked for but no move is left to undo."""


class NothingToRedo(CommandError):
    """Redo was asked for but nothing has been undone since the last move."""


class DiceError(MalformedCommand):
    """A dice result that does not answer the pending dice request (wrong count, a face out of range)."""


class UnknownGame(CompanionError, LookupError):
    """No game is registered under that name, or no saved game has that id."""


class JournalError(CompanionError, RuntimeError):
    """The journal could not be opened, read or written."""


class AlreadyRunning(CompanionError, RuntimeError):
    """Another companion process already holds the single-instance lock."""


class NotOwnerThread(CompanionError, RuntimeError):
    """Table state was about to be changed from a thread that does not own the table."""


class FrameError(CompanionError, ValueError):
    """A serial reader frame cannot be built: a reserved character (``$``, ``*``, a control character),
    a value outside the protocol's range, or a line over the maximum length (firmware_bridge/PROTOCOL.md)."""


class ReaderError(CompanionError, OSError):
    """A serial reader's port cannot be used. ``port`` names it (a path such as
    ``/dev/serial/by-id/...``, or a description of the USB identity looked for); the message says why."""

    def __init__(self, port: str, problem: str) -> None:
        self.port, self.problem = str(port), problem
        super().__init__(f"{self.port}: {problem}")


class ReaderBusy(ReaderError):
    """The port is already open exclusively (another companion, another reader connection, a terminal
    program): two owners of one reader would each see half its frames."""


class TileError(CompanionError, ValueError):
    """A tile tag UID is not upper-case hex of 4, 7 or 10 bytes, or a tile's details cannot be stored
    (not a JSON object, an empty kind)."""


#: A citation already at the end of a reason: " (TV Wars 2.3)", " (Telly Time: Your Genre Grid)".
_CITED = re.compile(r" \(((?:TV Wars|Death Show TV|Channel WON|Telly Time|The Networks|table rule)[^()]*)\)$")
