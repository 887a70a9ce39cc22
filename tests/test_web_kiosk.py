"""The kiosk as a user runs it (the installed ``companion run --sim`` in a real process, under Xvfb): with the
default config it opens no network socket at all (issue 20: no listener unless ``[web] enabled``); with
``[web] enabled`` it listens on the configured address and port and serves the spectator page. The kiosk's
memory (VmRSS) in both is printed (measured, not asserted)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
from pathlib import Path

import httpx
import pytest
from conftest import COMPANION
from web_helpers import wait_for

pytestmark = pytest.mark.kivy


def inet_sockets(pid: int) -> dict[str, list[str]]:
    """The process's IPv4/IPv6 TCP and UDP sockets: ``{"tcp": [local address:port in hex, state], ...}``, from its
    open files' socket inodes and ``/proc/net/{tcp,tcp6,udp,udp6}``."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    found: dict[str, list[str]] = {}
    for table in ("tcp", "tcp6", "udp", "udp6"):
        lines = Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]
        for line in lines:
            fields = line.split()
            if fields[9] in inodes:
                found.setdefault(table, []).append(f"{fields[1]} state {fields[3]}")
    return found


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def run_kiosk(tmp_path: Path, config: str, name: str):
    folder = tmp_path / name
    folder.mkdir()
    (folder / "config.toml").write_text(config)
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(folder / "notify.sock"))
    notify.settimeout(90)
    env = {**os.environ, "NOTIFY_SOCKET": str(folder / "notify.sock")}
    process = subprocess.Popen(
        [str(COMPANION), "run", "--sim", "--data-dir", str(folder), "--config", str(folder / "config.toml")],
        stdout=subprocess.DEVNULL,
        stderr=open(folder / "stderr.txt", "w"),
        env=env,
    )
    try:
        while not notify.recv(256).decode().startswith("READY=1"):
            pass
    except TimeoutError:
        process.kill()
        raise AssertionError(f"the kiosk never said READY=1: {(folder / 'stderr.txt').read_text()[-2000:]}") from None
    finally:
        notify.close()
    return process


def stop(process) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_no_listener_unless_enabled_and_the_kiosks_memory_with_and_without(tmp_path, capsys):
    off = run_kiosk(tmp_path, '[table]\ngame = "tv-wars"\n', "off")
    try:
        assert inet_sockets(off.pid) == {}, "the kiosk opened a network socket with [web] off"
        off_rss = rss_mb(off.pid)
    finally:
        stop(off)
    port = free_port()
    on = run_kiosk(tmp_path, f'[web]\nenabled = true\naddress = "127.0.0.1"\nport = {port}\n', "on")
    try:
        listening = f"0100007F:{port:04X} state 0A"  # 127.0.0.1:port, LISTEN
        wait_for(lambda: listening in inet_sockets(on.pid).get("tcp", []), f"the kiosk to listen on port {port}")
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", trust_env=False, timeout=30) as client:
            assert "table.js" in client.get("/").text
            assert client.get("/api/table").json()["type"] == "table"
        on_rss = rss_mb(on.pid)
    finally:
        stop(on)
    with capsys.disabled():
        print(f"\nkiosk VmRSS at READY: [web] off {off_rss:.1f} MB, on (serving) {on_rss:.1f} MB")
