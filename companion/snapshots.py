"""State snapshots: a game's state stored as bytes that decode to exactly the same value, for start-up.

A game's state is a tree of frozen dataclasses, tuples and plain values (the games' ``evolve`` is pure and
its states are immutable: companion/session.py). :func:`encode_state` turns such a value into bytes and
:func:`decode_state` turns them back into an equal value built by the same classes' constructors. The codec
knows no game: a value is encoded by its type alone.

Encoding (JSON, then zlib; ``{"v": CODEC_VERSION, "types": [[tag, [field, ...]], ...], "s": value}``):

* ``str``, ``int``, ``bool``, ``None``, ``float`` — as JSON;
* ``tuple`` — a JSON array;
* a dataclass — ``{"<i>": [value, ...]}``: ``i`` indexes ``types``, whose entry is ``"module:QualName"`` and
  the names of the class's ``init`` fields, and the values are those fields' in that order; it is rebuilt as
  ``Class(**fields)`` (so ``__post_init__`` runs: a field with ``init=False`` must be derived from the others);
* an :class:`~enum.Enum` member — ``{"E": [i, value]}``;
* ``list`` ``{"L": [...]}``, ``dict`` ``{"D": [key, value, key, value, ...]}`` (insertion order kept), ``set``
  ``{"S": [...]}``, ``frozenset`` ``{"F": [...]}``, :class:`~fractions.Fraction` ``{"Q": [numerator,
  denominator]}``.

Anything else raises :class:`SnapshotError` (the state is then simply not stored). Decoding accepts only
classes of modules under ``companion`` that are already imported and are dataclasses or enums, and only if
their ``init`` fields are still the ones named in ``types``; any other content raises :class:`SnapshotError`.

:func:`format_key` names the code's state format for a game: the codec version, the companion version, the
game's name and its optional ``state_version``, and the field layout of every dataclass its state class refers
to. A snapshot stored under another key is never used. The journal keeps snapshots in its ``snapshots`` table
(companion/journal.py); :class:`SnapshotWorker` encodes them on a background thread.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import logging
import re
import sys
import threading
import zlib
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from companion.errors import CompanionError

log = logging.getLogger("companion.snapshots")

#: Version of the encoding above; part of every :func:`format_key`.
CODEC_VERSION = 1
#: zlib level: states are small and repetitive; level 6 is zlib's default balance of size and time.
ZLIB_LEVEL = 6


class SnapshotError(CompanionError, ValueError):
    """A state cannot be encoded (a value of a type the codec does not store), or stored bytes do not
    decode to a state (damaged, another format, a class that no longer has those fields)."""


# -- encoding --------------------------------------------------------------------------------------------
_INIT_FIELDS: dict[type, tuple[str, ...]] = {}


def _init_fields(cls: type) -> tuple[str, ...]:
    names = _INIT_FIELDS.get(cls)
    if names is None:
        names = _INIT_FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.init)
    return names


def _tag(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


class _Encoder:
    __slots__ = ("types", "order")

    def __init__(self) -> None:
        self.types: dict[type, str] = {}  # class -> its index as a JSON key
        self.order: list[type] = []

    def index(self, cls: type) -> str:
        key = self.types.get(cls)
        if key is None:
            key = self.types[cls] = str(len(self.order))
            self.order.append(cls)
        return key

    def value(self, value: Any) -> Any:
        kind = type(value)
        if kind is str or kind is int or kind is bool or value is None or kind is float:
            return value
        if kind is tuple:
            encode = self.value
            return [encode(item) for item in value]
        if dataclasses.is_dataclass(kind):
            key = self.index(kind)
            encode = self.value
            return {key: [encode(getattr(value, name)) for name in _init_fields(kind)]}
        if isinstance(value, enum.Enum):
            return {"E": [int(self.index(kind)), self.value(value.value)]}
        if kind is list:
            return {"L": [self.value(item) for item in value]}
        if kind is dict:
            flat = []
            for key, item in value.items():
                flat.append(self.value(key))
                flat.append(self.value(item))
            return {"D": flat}
        if kind is frozenset or kind is set:
            return {"F" if kind is frozenset else "S": [self.value(item) for item in value]}
        if kind is Fraction:
            return {"Q": [value.numerator, value.denominator]}
        raise SnapshotError(
            f"a state cannot be stored: it holds a {kind.__module__}.{kind.__qualname__} ({value!r:.60})"
        )


def encode_state(state: Any) -> bytes:
    """``state`` as compressed bytes (see the module docstring). Raises :class:`SnapshotError` for a value
    the codec does not store."""
    encoder = _Encoder()
    body = encoder.value(state)
    types = [[_tag(cls), list(_init_fields(cls)) if dataclasses.is_dataclass(cls) else []] for cls in encoder.order]
    try:
        text = json.dumps(
            {"v": CODEC_VERSION, "types": types, "s": body}, separators=(",", ":"), ensure_ascii=False, allow_nan=True
        )
    except (TypeError, ValueError) as error:  # e.g. a dict key the codec turned into an object
        raise SnapshotError(f"a state cannot be stored: {error}") from error
    return zlib.compress(text.encode("utf-8"), ZLIB_LEVEL)


# -- decoding --------------------------------------------------------------------------------------------
def _class(tag: Any, names: Any, packages: tuple[str, ...]) -> tuple[type, tuple[str, ...]]:
    if not isinstance(tag, str) or ":" not in tag or not isinstance(names, list):
        raise SnapshotError(f"not a type entry: {tag!r}")
    module_name, _, qualname = tag.partition(":")
    if not any(module_name == package or module_name.startswith(package + ".") for package in packages):
        raise SnapshotError(f"a snapshot may only name the companion's own classes, not {tag}")
    module = sys.modules.get(module_name)  # never imported because a snapshot says so
    if module is None:
        raise SnapshotError(f"{module_name} is not loaded, so {tag} is not a class of this game's state")
    found: Any = module
    for part in qualname.split("."):
        found = getattr(found, part, None)
    if not isinstance(found, type) or getattr(found, "__module__", None) != module_name:
        raise SnapshotError(f"there is no class {tag}")
    if issubclass(found, enum.Enum):
        return found, ()
    if not dataclasses.is_dataclass(found):
        raise SnapshotError(f"{tag} is not a dataclass or an enum")
    fields = _init_fields(found)
    if list(fields) != names:
        raise SnapshotError(f"{tag} now has the fields {', '.join(fields)}, not {', '.join(map(str, names))}")
    return found, fields


class _Decoder:
    __slots__ = ("classes",)

    def __init__(self, classes: list[tuple[type, tuple[str, ...]]]) -> None:
        self.classes = classes

    def value(self, value: Any) -> Any:
        kind = type(value)
        if kind is list:
            decode = self.value
            return tuple([decode(item) for item in value])
        if kind is not dict:
            return value
        if len(value) != 1:
            raise SnapshotError("an encoded value is an object with one key")
        ((key, content),) = value.items()
        if not isinstance(content, list):
            raise SnapshotError(f"an encoded {key!r} holds a list, not {content!r:.40}")
        decode = self.value
        if key.isdigit():
            cls, names = self.classes[int(key)]
            if issubclass(cls, enum.Enum) or len(content) != len(names):
                raise SnapshotError(f"{_tag(cls)} takes {len(names)} fields, not {len(content)}")
            return cls(**{name: decode(item) for name, item in zip(names, content)})
        if key == "L":
            return [decode(item) for item in content]
        if key == "D":
            if len(content) % 2:
                raise SnapshotError("an encoded dict holds key, value pairs")
            items = iter(content)
            return {decode(k): decode(v) for k, v in zip(items, items)}
        if key == "F":
            return frozenset(decode(item) for item in content)
        if key == "S":
            return {decode(item) for item in content}
        if key == "Q":
            numerator, denominator = content
            if type(numerator) is not int or type(denominator) is not int:
                raise SnapshotError("a fraction is two whole numbers")
            return Fraction(numerator, denominator)
        if key == "E":
            index, member = content
            if type(index) is not int or not 0 <= index < len(self.classes):
                raise SnapshotError(f"no type #{index!r} in this snapshot")
            cls = self.classes[index][0]
            if not issubclass(cls, enum.Enum):
                raise SnapshotError(f"{_tag(cls)} is not an enum")
            return cls(decode(member))
        raise SnapshotError(f"unknown encoded kind {key!r}")


def decode_state(data: bytes, *, packages: tuple[str, ...] = ("companion",)) -> Any:
    """The state that :func:`encode_state` turned into ``data``. Raises :class:`SnapshotError` if ``data`` is
    damaged, of another codec version, or names classes or fields this code does not have (then the snapshot
    is not used). Only classes of already imported modules of ``packages`` are built."""
    try:
        document = json.loads(zlib.decompress(data).decode("utf-8"))
    except (zlib.error, UnicodeDecodeError, ValueError, TypeError) as error:
        raise SnapshotError(f"a snapshot does not decode: {error}") from error
    if not isinstance(document, dict) or document.get("v") != CODEC_VERSION:
        raise SnapshotError(
            f"a snapshot of another codec version "
            f"({document.get('v') if isinstance(document, dict) else '?'}, this code reads "
            f"{CODEC_VERSION})"
        )
    types = document.get("types")
    if not isinstance(types, list) or "s" not in document:
        raise SnapshotError("a snapshot without its types or state")
    try:
        classes = [
            _class(entry[0], entry[1], packages)
            if isinstance(entry, list) and len(entry) == 2
            else _class(entry, None, packages)
            for entry in types
        ]
        return _Decoder(classes).value(document["s"])
    except SnapshotError:
        raise
    except (CompanionError, TypeError, ValueError, IndexError, KeyError, AttributeError) as error:
        raise SnapshotError(f"a snapshot does not decode to a state: {error!r:.200}") from error


# -- the code's state format ------------------------------------------------------------------------------
_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
_KEYS: dict[str, str] = {}


def _layouts(cls: type, seen: dict[type, str]) -> None:
    """Every dataclass and enum reachable from ``cls`` through its fields' annotations (names looked up in
    the defining module), each as one line: tag and ``name:annotation:init`` of each field."""
    if cls in seen:
        return
    if isinstance(cls, type) and issubclass(cls, enum.Enum):
        seen[cls] = f"{_tag(cls)} enum " + ",".join(f"{m.name}={m.value!r}" for m in cls)
        return
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]  # the callers pass dataclasses only
    seen[cls] = f"{_tag(cls)} " + ",".join(f"{f.name}:{f.type}:{int(f.init)}" for f in fields)
    namespace = vars(sys.modules[cls.__module__])
    for f in fields:
        annotation = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
        for name in _NAME.findall(annotation):
            found = namespace.get(name)
            if isinstance(found, type) and (dataclasses.is_dataclass(found) or issubclass(found, enum.Enum)):
                _layouts(found, seen)


def _digest(text: str) -> str:
    """16 hex digits that change whenever ``text`` does: its CRC-32 and its Adler-32 side by side. Nothing here
    is adversarial (whoever can edit the journal's stored states can edit its events), so a cryptographic hash
    buys nothing; and ``hashlib`` would load OpenSSL for this digest alone (issue 17: measured, 3.6 MB and ~3 ms
    of a headless start, ×5 on a Pi 4; 0.7 MB of a resumed kiosk's, whose libraries map part of it already)."""
    data = text.encode()
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


def source_digest(rules: Any) -> str:
    """A digest of the code that folds the game ``rules``'s events: every ``.py`` file of the package (or
    one-file module) that defines ``rules`` (``rules.info.rules`` names it), and the core's own top-level
    modules. Any change to them, released or not, makes every stored state of that game untrusted (it is
    rebuilt by one full replay), so an ``evolve`` fixed without a version bump can never be bypassed by a state
    the old code stored."""
    import companion

    info = getattr(rules, "info", None)
    module = sys.modules.get(info.rules.partition(":")[0] if info else type(rules).__module__)
    files: list[Path] = sorted(Path(companion.__file__).parent.glob("*.py"))
    where = getattr(module, "__file__", None)
    if where:
        where = Path(where)
        # the whole package the rules live in (a game is one folder), or the one module of a one-file game
        files += sorted(where.parent.rglob("*.py")) if (where.parent / "__init__.py").exists() else [where]
    # CRC-32 per file, not a cryptographic hash: it only has to notice a change, and it costs a fraction
    # of SHA-256 over the ~0.5 MB of source read on every start-up
    parts = []
    for path in dict.fromkeys(files):
        try:
            parts.append(f"{path.name} {zlib.crc32(path.read_bytes()):08x}")
        except OSError:
            parts.append(f"{path.name} unreadable")
    return _digest("\n".join(parts))


def format_key(rules: Any, state: Any) -> str:
    """The state format of the game ``rules`` (whose states are like ``state``): a short hex digest of the
    codec version, the companion version, the game's name and ``state_version`` (a game raises it when its
    ``evolve`` gives other states for the same events), the :func:`source_digest` of its code, and every
    state class's fields. Computed once per game and process."""
    info = getattr(rules, "info", None)
    name = info.name if info else getattr(rules, "name", type(rules).__name__)
    key = _KEYS.get(name)
    if key is None:
        from companion import __version__

        seen: dict[type, str] = {}
        if dataclasses.is_dataclass(type(state)):
            _layouts(type(state), seen)
        lines = [
            f"codec {CODEC_VERSION}",
            f"companion {__version__}",
            f"game {name}",
            f"state_version {getattr(rules, 'state_version', 0)}",
            f"source {source_digest(rules)}",
            *sorted(seen.values()),
        ]
        key = _KEYS[name] = _digest("\n".join(lines))
    return key


# -- off the table's thread -------------------------------------------------------------------------------
class SnapshotWorker:
    """Encodes states on a background thread. ``request(key, state)`` returns at once; the encoded bytes
    are handed to ``deliver(key, data)`` on the worker thread (a state that cannot be encoded is logged and
    dropped). ``wait(timeout)`` returns once everything requested is delivered (True) or ``timeout`` passes
    (False); ``close(timeout)`` does that and stops the thread. Safe to call ``close`` twice."""

    def __init__(self, deliver: Callable[[Any, bytes], None], name: str = "snapshots") -> None:
        self._deliver = deliver
        self._queue: list[tuple[Any, Any]] = []
        self._busy = 0
        self._closed = False
        self._condition = threading.Condition()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def request(self, key: Any, state: Any) -> None:
        with self._condition:
            if self._closed:
                return
            self._queue.append((key, state))
            self._condition.notify_all()

    def _run(self) -> None:
        while True:
            with self._condition:
                while not self._queue and not self._closed:
                    self._condition.wait()
                if not self._queue:
                    return
                key, state = self._queue.pop(0)
                self._busy += 1
            try:
                self._deliver(key, encode_state(state))
            except SnapshotError as error:
                log.warning("a state snapshot was not stored: %s", error)
            except Exception:  # never kill the thread: the game goes on without it
                log.exception("storing a state snapshot failed")
            finally:
                with self._condition:
                    self._busy -= 1
                    self._condition.notify_all()

    def wait(self, timeout: float | None = None) -> bool:
        with self._condition:
            return self._condition.wait_for(lambda: not self._queue and not self._busy, timeout)

    def close(self, timeout: float | None = None) -> bool:
        done = self.wait(timeout)
        with self._condition:
            self._closed = True
            self._condition.notify_all()
        self._thread.join(timeout if done else 0.1)
        return done
