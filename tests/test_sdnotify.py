"""sd_notify over a real Unix datagram socket, as systemd would listen for it (Type=notify, WatchdogSec)."""

import os
import socket

from companion.sdnotify import notify, watchdog_interval


def test_notify_reaches_the_socket_and_is_silent_outside_systemd(tmp_path, monkeypatch):
    path = str(tmp_path / "notify.sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(path)
    server.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    assert notify("READY=1\nSTATUS=ready")
    assert server.recv(1024) == b"READY=1\nSTATUS=ready"
    server.close()
    monkeypatch.delenv("NOTIFY_SOCKET")
    assert notify("WATCHDOG=1") is False


def test_abstract_socket_names_work(monkeypatch):
    name = f"companion-test-{os.getpid()}"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind("\0" + name)
    server.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
    assert notify("WATCHDOG=1")
    assert server.recv(64) == b"WATCHDOG=1"
    server.close()


def test_watchdog_interval_is_half_of_watchdog_sec_and_only_for_this_process(monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert watchdog_interval() == 15
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid() + 1))
    assert watchdog_interval() is None
    monkeypatch.delenv("WATCHDOG_USEC")
    assert watchdog_interval() is None
