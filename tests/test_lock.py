"""Only one companion runs at a time; a lock left by ``kill -9`` never blocks a restart."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import run_companion

from companion.errors import AlreadyRunning
from companion.lock import InstanceLock
from companion.paths import LOCK_NAME

HOLDER = r"""
import sys, time
from companion.lock import InstanceLock
lock = InstanceLock(sys.argv[1]).acquire()
print("locked", flush=True)
time.sleep(120)
"""

TRY_ONCE = r"""
import sys, time
from companion.errors import AlreadyRunning
from companion.lock import InstanceLock
start = time.monotonic()
try:
    InstanceLock(sys.argv[1]).acquire()
except AlreadyRunning as error:
    print(f"refused {time.monotonic() - start:.3f} {error}")
    sys.exit(3)
print("acquired")
"""


@pytest.fixture
def holder(tmp_path):
    """A real process holding the lock at ``tmp_path/companion.lock``; yields the Popen."""
    path = tmp_path / LOCK_NAME
    process = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline().strip() == "locked"
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        process.stdout.close()


def test_second_acquire_in_another_process_fails_at_once(tmp_path):
    path = tmp_path / LOCK_NAME
    with InstanceLock(path):
        started = time.monotonic()
        result = subprocess.run([sys.executable, "-c", TRY_ONCE, str(path)], capture_output=True, text=True, timeout=30)
        assert result.returncode == 3, result.stdout + result.stderr
        waited = float(result.stdout.split()[1])
        assert waited < 0.5, f"acquire waited {waited}s instead of failing at once"
        assert f"pid {os.getpid()}" in result.stdout
        assert time.monotonic() - started < 30
    # released: the other process now gets it
    result = subprocess.run([sys.executable, "-c", TRY_ONCE, str(path)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0 and "acquired" in result.stdout


def test_lock_held_by_another_process_raises_already_running_naming_it(tmp_path, holder):
    started = time.monotonic()
    with pytest.raises(AlreadyRunning) as caught:
        InstanceLock(tmp_path / LOCK_NAME).acquire()
    assert time.monotonic() - started < 0.5
    assert f"pid {holder.pid}" in str(caught.value)
    assert "already running" in str(caught.value)


def test_stale_lock_after_sigkill_never_blocks(tmp_path, holder):
    path = tmp_path / LOCK_NAME
    with pytest.raises(AlreadyRunning):
        InstanceLock(path).acquire()
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=10)
    assert path.read_text() == str(holder.pid), "precondition: the dead holder left its lock file behind"
    lock = InstanceLock(path).acquire()
    try:
        assert path.read_text() == str(os.getpid())
    finally:
        lock.release()
    lock.release()  # twice is fine


def test_lock_in_the_same_process_is_exclusive_too(tmp_path):
    path = tmp_path / "deep" / "folder" / LOCK_NAME  # folders are created
    with InstanceLock(path):
        with pytest.raises(AlreadyRunning):
            InstanceLock(path).acquire()
    with InstanceLock(path):
        pass


def test_companion_run_exits_quickly_when_another_instance_holds_the_lock(tmp_path, holder):
    started = time.monotonic()
    result = run_companion("run", "--data-dir", str(tmp_path), timeout=60)
    elapsed = time.monotonic() - started
    assert result.returncode == 1, (result.returncode, result.stderr)
    assert "already running" in result.stderr
    assert f"pid {holder.pid}" in result.stderr
    assert elapsed < 10, f"took {elapsed:.1f}s"
    assert not (tmp_path / "journal.sqlite3").exists(), "the journal was touched without the lock"
