"""One thread owns the table (DESIGN.md, "Layers"): other threads only post; the owner drains the queue.

Real threads: six posters (as gpiozero callbacks and serial reader threads would be) and the owner loop.
"""

from __future__ import annotations

import threading
import time

import pytest
from conftest import NETWORKS, read_events, start_tv_wars

from companion.commands import BANK, TransferMoney, Undo
from companion.errors import NotOwnerThread
from companion.games.tv_wars import PassOnTheAir
from companion.games.tv_wars.bank import MONEY_MOVED

THREADS = 6
PER_THREAD = 1_000


def test_posts_from_many_threads_arrive_exactly_once_in_order_on_the_owner_thread(table):
    game_id = start_tv_wars(table, 4, roll_off=False)  # play has begun: On the Air is a move (2.5)
    owner = threading.get_ident()
    heard_on: list[int] = []
    outcomes = []
    table.subscribe(lambda t, outcome: heard_on.append(threading.get_ident()))
    start = threading.Barrier(THREADS + 1)
    errors: list[BaseException] = []

    def poster(t: int) -> None:
        try:
            start.wait()
            for i in range(PER_THREAD):
                network = NETWORKS[t % 4]
                if i % 4 == 3:
                    table.post(PassOnTheAir(network=network, source="button"))
                else:
                    table.post(
                        TransferMoney(payer=BANK, payee=network, amount=500, reason=f"t{t} #{i}", source="reader")
                    )
                if i % 97 == 0:
                    time.sleep(0)  # let the others interleave
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=poster, args=(t,), name=f"poster-{t}") for t in range(THREADS)]
    for thread in threads:
        thread.start()
    start.wait()
    deadline = time.monotonic() + 60
    while len(outcomes) < THREADS * PER_THREAD and time.monotonic() < deadline:
        table.wait_pending(timeout=1.0)  # the owner loop of a headless table: woken by each post
        outcomes.extend(table.process_pending(limit=200))
    for thread in threads:
        thread.join(timeout=10)
    outcomes.extend(table.process_pending())
    assert not errors

    assert len(outcomes) == THREADS * PER_THREAD
    assert all(o.accepted for o in outcomes), [o.message for o in outcomes if not o.accepted][:3]
    assert heard_on and set(heard_on) == {owner}, "a listener was called off the owner thread"
    assert len(heard_on) == THREADS * PER_THREAD

    # every transfer exactly once, and per thread in posting order (checked in the journal itself)
    rows = [r for r in read_events(table.journal.path, game_id) if r["type"] == MONEY_MOVED]
    assert len(rows) == THREADS * PER_THREAD
    per_thread: dict[int, list[int]] = {t: [] for t in range(THREADS)}
    for row in rows:
        reason = row["payload"]["reason"]
        if reason.startswith("t"):
            t, i = reason[1:].split(" #")
            per_thread[int(t)].append(int(i))
    for t, indexes in per_thread.items():
        assert indexes == [i for i in range(PER_THREAD) if i % 4 != 3], f"thread {t} out of order or lost"
    # and the money adds up: 750 transfers of $500 and 250 On the Air payments per thread
    expected = {name: 31_000 for name in NETWORKS}
    for t in range(THREADS):
        expected[NETWORKS[t % 4]] += 750 * 500 + 250 * 3_000
    assert table.state.balances == expected
    assert len(table.session.line) == THREADS * PER_THREAD


def test_changing_the_table_from_another_thread_raises_and_changes_nothing(table):
    start_tv_wars(table, 2, roll_off=False)
    table.execute(PassOnTheAir(network="ABS"))
    before_state, before_history = table.state, table.history()
    table.post(PassOnTheAir(network="CBA"))  # waiting in the queue
    caught: list[BaseException] = []

    def intruder() -> None:
        for call in (
            lambda: table.execute(PassOnTheAir(network="ABS")),
            lambda: table.execute(Undo()),
            lambda: table.process_pending(),
            lambda: table.resume_latest(),
        ):
            try:
                call()
            except BaseException as error:
                caught.append(error)

    thread = threading.Thread(target=intruder)
    thread.start()
    thread.join()
    assert len(caught) == 4 and all(isinstance(e, NotOwnerThread) for e in caught), caught
    assert table.state == before_state and table.history() == before_history
    assert len(read_events(table.journal.path)) == 2  # game_started and the one move
    # the queued command is still there for the owner
    (outcome,) = table.process_pending()
    assert outcome.accepted and table.state.balances["CBA"] == 34_000


def test_the_first_thread_to_apply_a_command_owns_an_unclaimed_table(journal):
    from companion.dice import SeededDice
    from companion.table import Table

    table = Table(journal, dice=SeededDice(1))
    done = threading.Event()

    def owner() -> None:
        start_tv_wars(table, 2, roll_off=False)
        done.set()

    thread = threading.Thread(target=owner)
    thread.start()
    thread.join()
    assert done.is_set()
    with pytest.raises(NotOwnerThread):
        table.execute(PassOnTheAir(network="ABS"))
    table.claim()
    assert table.execute(PassOnTheAir(network="ABS")).accepted


def test_the_owner_waits_for_a_post_and_is_woken_by_one_from_another_thread(table):
    start_tv_wars(table, 2, roll_off=False)
    assert table.wait_pending(timeout=0.01) is False  # nothing queued: the time-out
    table.post(PassOnTheAir(network="ABS"))
    assert table.wait_pending(timeout=0) is True  # already queued: at once
    assert [o.accepted for o in table.process_pending()] == [True]
    woke: list[bool] = []
    waiting = threading.Event()

    def owner_loop() -> None:
        waiting.set()
        woke.append(table.wait_pending(timeout=60))  # far longer than the test waits below

    thread = threading.Thread(target=owner_loop)
    thread.start()
    assert waiting.wait(10), "the owner loop did not start"
    table.post(PassOnTheAir(network="CBA", source="button"))  # as a button's callback thread does
    thread.join(timeout=30)
    assert not thread.is_alive(), "the post did not wake the waiting owner"
    assert woke == [True]
    assert [o.accepted for o in table.process_pending()] == [True]
    assert table.state.balances["CBA"] == 34_000


def test_a_backup_a_move_asks_for_is_requested_only_after_its_listeners_ran(table):
    start_tv_wars(table, 2, roll_off=False)
    table.backup_every = 3
    seen: list[bool] = []  # per move: had a backup been requested when the listener heard it?
    table.subscribe(lambda t, outcome: seen.append(t.journal.backup_worker is not None))
    for _ in range(3):
        assert table.execute(PassOnTheAir(network="ABS")).accepted
    assert seen == [False, False, False]  # the third move asked for one, after its listener
    assert table.journal.backup_worker is not None
    assert table.journal.wait_for_backups(60), "the requested backup was not written within 60 s"
