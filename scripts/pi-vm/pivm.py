#!/usr/bin/env python3
"""The emulated Raspberry Pi test (issue 14): install the kiosk the way the README says, reboot into it, and
check the real thing through the real kernel interfaces. Started by ./run-pi-vm-test, which installs the
host's packages first; host Python's standard library only.

Stages (each timed; each wait bounded, and a failure names what it waited for):
  image     the cached arm64 Debian 12 image (scripts/pi-vm/build-image.sh, keyed by a hash of its inputs)
  wheels    aarch64 wheels (and RPi.GPIO's sdist) fetched by the host's pip, cached, shared over 9p
  boot1     first boot: stage the guest like a fresh Pi OS Lite, run `scripts/install-kiosk.sh --start`
            with PIP_NO_INDEX/PIP_FIND_LINKS, then power off (the README's reboot; the firmware's part,
            reading cmdline.txt, is played by this script)
  boot2     boot into the kiosk and assert: READY with the sandbox unchanged, lgpio and the board model
            logged, four panels behind the TCA9548A, a button press on a gpio-sim line -> the journal move,
            the I²C bytes decoded per channel = the project's own rendering, a screendump that is the game
            board, a uinput tap that reaches the app once
  cut1/cut2 a move, then within a second QEMU's system_reset / kill -9 of QEMU; the move kept, integrity ok,
            the kiosk back on the game within 120 s (timed by a screendump a second from the host)
  watchdog  SIGSTOP the UI: killed by the watchdog and restarted (NRestarts + 1)
Artefacts: test-artifacts/pi-vm/ (serial logs, install log, journal, screendumps, decoded panels, summary).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tarfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))
import pictures  # noqa: E402

NICE = ["nice", "-n", os.environ.get("PI_VM_NICE", "19")]
IMAGE_INPUTS = ["build-image.sh", "image-customize.sh", "gpio-sim-Kbuild"]
SEATS = [("ABS", 17, 27, 22), ("CBA", 23, 24, 25), ("PBC", 12, 16, 20), ("NBS", 13, 19, 26)]  # wiring.md
UNDO_PIN, REDO_PIN = 5, 6
WHEEL_SDISTS = ["RPi.GPIO>=0.7"]  # no aarch64 wheel on PyPI: built in the guest
UNIT = "tabletop-companion.service"
#: power back -> the resumed game on the screen (PictureWatch: a screendump a second): within RESUME_LIMIT_S, or
#: within RESUME_FACTOR x this run's own normal boot to the home screen (boot 2) on a host slower than that
RESUME_LIMIT_S = 120
RESUME_FACTOR = 1.5
SSH_ATTEMPT_S = 300  # boot to ssh took 25-70 s idle, up to ~4 min under load (VM.wait_ssh)
SANDBOX = {  # what the shipped unit sets, as systemd reports it (systemctl show)
    "User": "companion",
    "Group": "companion",
    "NoNewPrivileges": "yes",
    "CapabilityBoundingSet": "",
    "ProtectSystem": "strict",
    "ProtectHome": "yes",
    "PrivateTmp": "yes",
    "PrivateDevices": "no",
    "ProtectKernelTunables": "yes",
    "ProtectKernelModules": "yes",
    "ProtectKernelLogs": "yes",
    "ProtectControlGroups": "yes",
    "RestrictSUIDSGID": "yes",
    "RestrictRealtime": "yes",
    "LockPersonality": "yes",
    "ProtectHostname": "yes",
    "Type": "notify",
    "NotifyAccess": "main",
    "WatchdogUSec": "30s",
    "Restart": "on-failure",
    "DropInPaths": "",
    "RestrictAddressFamilies": "AF_UNIX AF_NETLINK",  # no IP: [web] is off by default (web.conf opens it)
}
# The Undo button of the dashboard's top bar at 800x480 (ui/kv/dashboard.kv: padding 4, spacing 4; Home 80,
# title, Undo 250, Redo 190, History 96 wide; the bar 54 high): its centre.
UNDO_TAP = (377, 27)


class Failure(Exception):
    """An assertion or a bounded wait that failed; the message says which."""


class Run:
    def __init__(self, args) -> None:
        self.args = args
        self.art = Path(args.artifacts).resolve()
        self.cache = Path(args.cache).resolve()
        self.started = time.monotonic()
        self.timings: dict[str, float] = {}
        self.results: list[dict] = []
        self.vm: VM | None = None
        self.boot = 0
        self.soft_failures: list[str] = []
        self.ssh_retries = 0  # boots reset once because ssh never answered (VM.wait_ssh)
        self.home_picture_s: float | None = None  # boot 2: power-on -> the home screen (the power cuts' baseline)
        self.chip = "gpiochip4" if args.pi5 else "gpiochip0"

    # -- reporting -----------------------------------------------------------------------------------------
    def log(self, message: str) -> None:
        line = f"[{time.monotonic() - self.started:7.1f}s] {message}"
        print(line, flush=True)
        with open(self.art / "test.log", "a") as f:
            f.write(line + "\n")

    def check(self, name: str, ok: bool, detail: str = "", fatal: bool = True) -> None:
        """Record a check; a failed one stops the test (``fatal``) or is reported at the end."""
        self.results.append({"check": name, "ok": bool(ok), "detail": detail})
        self.log(f"{'PASS' if ok else 'FAIL'}: {name}" + (f" ({detail})" if detail else ""))
        if not ok:
            if fatal:
                raise Failure(f"{name}: {detail}")
            self.soft_failures.append(f"{name}: {detail}")

    def wait_for(self, what: str, probe, timeout: float, interval: float = 2.0):
        """Call ``probe`` until it returns something true; give up after ``timeout`` s naming ``what``."""
        deadline = time.monotonic() + timeout
        last = None
        while True:
            try:
                value = probe()
                if value:
                    return value
                last = value
            except (subprocess.SubprocessError, OSError, ValueError, KeyError) as error:
                last = f"{type(error).__name__}: {error}"
            if time.monotonic() >= deadline:
                raise Failure(
                    f"timed out after {timeout:.0f} s waiting for {what}"
                    + (f" (last seen: {str(last)[:300]})" if last not in (None, "", False) else "")
                )
            time.sleep(interval)

    def stage(self, name: str):
        run = self

        class Stage:
            def __enter__(self):
                self.t = time.monotonic()
                run.log(f"== stage {name}")

            def __exit__(self, kind, value, tb):
                run.timings[name] = round(time.monotonic() - self.t, 1)
                run.log(f"== stage {name} {'done' if kind is None else 'FAILED'} in {run.timings[name]:.0f} s")
                run.write_summary(None if kind is None else f"{name}: {value}")

        return Stage()

    def write_summary(self, failure: str | None) -> None:
        summary = {
            "timings_s": self.timings,
            "total_s": round(time.monotonic() - self.started, 1),
            "ssh_retries": self.ssh_retries,
            "checks": self.results,
            "failure": failure,
        }
        (self.art / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")

    # -- host side preparation ---------------------------------------------------------------------------------
    def image(self) -> Path:
        digest = hashlib.sha256()
        for name in IMAGE_INPUTS:
            digest.update((HERE / name).read_bytes())
        image = self.cache / digest.hexdigest()[:16]
        if (image / "complete").exists():
            self.log(f"image: cached {image}")
        else:
            self.log(f"image: building {image} (emulated; 15-40 min)")
            subprocess.run([str(HERE / "build-image.sh"), str(image)], check=True)
        shutil.copy(image / "build.log", self.art / "image-build.log")
        return image

    def wheels(self) -> Path:
        """aarch64 wheels for the guest's Python 3.11 (plus sdists that have no such wheel), fetched by the
        host's pip into a cached folder keyed by pyproject.toml."""
        platforms = ["manylinux2014_aarch64"] + [
            f"manylinux_2_{n}_aarch64" for n in (17, 24, 26, 27, 28, 31, 34, 35, 36)
        ]
        wanted = [
            "pip",
            "setuptools>=68",
            "kivy>=2.3,<3",
            "gpiozero>=2.0,<3",
            "luma.oled>=3.13,<4",
            "pyserial>=3.5,<4",
            "lgpio>=0.2",
            # the [web] extra, which install-kiosk.sh always installs (nothing of it runs while [web] is off)
            "starlette>=0.40",
            "uvicorn>=0.30",
            "h11>=0.14",
            "wsproto>=1.2",
            "segno>=1.6",
        ]
        spec = (REPO / "pyproject.toml").read_bytes() + json.dumps([platforms, wanted, WHEEL_SDISTS]).encode()
        folder = self.cache / "wheels" / hashlib.sha256(spec).hexdigest()[:16]
        if (folder / "complete").exists():
            self.log(f"wheels: cached {folder}")
            return folder
        folder.mkdir(parents=True, exist_ok=True)
        command = [
            *NICE,
            sys.executable,
            "-m",
            "pip",
            "download",
            "--disable-pip-version-check",
            "--dest",
            str(folder),
            "--only-binary=:all:",
            "--python-version",
            "3.11",
            "--implementation",
            "cp",
            "--abi",
            "cp311",
            "--abi",
            "abi3",
            "--abi",
            "none",
        ]
        for platform in platforms:
            command += ["--platform", platform]
        self.log("wheels: pip download for aarch64 / CPython 3.11")
        with open(self.art / "wheels.log", "w") as log:
            subprocess.run(command + wanted, check=True, stdout=log, stderr=subprocess.STDOUT, timeout=1800)
            # RPi.GPIO has no aarch64 wheel on PyPI: its sdist, built in the guest (the installer installs gcc)
            subprocess.run(
                [
                    *NICE,
                    sys.executable,
                    "-m",
                    "pip",
                    "download",
                    "--disable-pip-version-check",
                    "--dest",
                    str(folder),
                    "--no-deps",
                    "--no-binary=:all:",
                    *WHEEL_SDISTS,
                ],
                check=True,
                stdout=log,
                stderr=subprocess.STDOUT,
                timeout=600,
            )
        (folder / "complete").write_text(time.strftime("%FT%TZ", time.gmtime()) + "\n")
        return folder

    def share(self, image: Path, wheels: Path) -> Path:
        """The 9p folder the guest sees read-only at /mnt/pivm: the clone (tracked files of this checkout, as
        they are now), the wheels, the guest tools, the first cmdline.txt."""
        share = self.cache / "run" / "share"
        if share.exists():
            shutil.rmtree(share)
        share.mkdir(parents=True)
        files = (
            subprocess.run(["git", "-C", str(REPO), "ls-files", "-z"], check=True, capture_output=True)
            .stdout.decode()
            .split("\0")
        )
        with tarfile.open(share / "repo.tar.gz", "w:gz") as tar:
            for name in filter(None, files):
                if (REPO / name).exists():
                    tar.add(REPO / name, arcname=name, recursive=False)
        shutil.copytree(HERE / "guest", share / "guest")
        subprocess.run(["cp", "-al", str(wheels), str(share / "wheels")], check=True)  # hard links: no copy
        (share / "cmdline.txt").write_text(
            "console=ttyAMA0,115200 console=tty1 root=/dev/vda rootfstype=ext4 fsck.repair=yes rootwait\n"
        )
        return share

    def dtb(self, image: Path) -> Path:
        run = self.cache / "run"
        virt = run / "virt.dtb"
        subprocess.run(
            [
                *NICE,
                "qemu-system-aarch64",
                "-M",
                f"virt,dumpdtb={virt}",
                "-cpu",
                "cortex-a72",
                "-smp",
                "2",
                "-m",
                "2048",
                "-nographic",
                "-nic",
                "none",
            ],
            check=True,
            capture_output=True,
        )
        out = run / "pi.dtb"
        subprocess.run(
            [sys.executable, str(HERE / "make-dtb.py"), str(virt), str(out)] + (["--pi5"] if self.args.pi5 else []),
            check=True,
        )
        shutil.copy(str(out) + ".dts", self.art / "pi.dts")
        return out

    # -- the test ------------------------------------------------------------------------------------------------
    def main(self) -> int:
        if self.art.exists():
            shutil.rmtree(self.art)  # only this run's evidence
        self.art.mkdir(parents=True)
        (self.art / "test.log").write_text("")
        failure = None
        try:
            with self.stage("prepare"):
                image = self.image()
                wheels = self.wheels()
                run_dir = self.cache / "run"
                run_dir.mkdir(parents=True, exist_ok=True)
                share = self.share(image, wheels)
                dtb = self.dtb(image)
                disk = self.disk = run_dir / "disk.qcow2"
                disk.unlink(missing_ok=True)
                subprocess.run(
                    ["qemu-img", "create", "-q", "-f", "qcow2", "-F", "raw", "-b", str(image / "disk.raw"), str(disk)],
                    check=True,
                )
                self.vm = VM(self, image, dtb, disk, share, run_dir)
            installed = self.cache / "run" / "installed.qcow2"
            if self.args.reuse_install and installed.exists():
                self.log(f"--reuse-install: starting from the disk as the last run's install left it ({installed})")
                shutil.copy(installed, disk)
                self.cmdline = (self.cache / "run" / "installed.cmdline").read_text().strip()
            else:
                with self.stage("boot1-install"):
                    self.first_boot()
                shutil.copy(disk, installed)  # for --reuse-install (developing the later stages)
                (self.cache / "run" / "installed.cmdline").write_text(self.cmdline + "\n")
            with self.stage("boot2-kiosk"):
                self.second_boot()
            with self.stage("cut1-system_reset"):
                self.power_cut("reset")
            with self.stage("cut2-kill"):
                self.power_cut("kill")
            with self.stage("watchdog"):
                self.watchdog()
        except Failure as error:
            failure = str(error)
            self.log(f"TEST FAILED: {failure}")
        except Exception as error:  # a harness error: still keep what there is
            failure = f"{type(error).__name__}: {error}"
            self.log(f"TEST ERROR: {failure}")
            import traceback

            traceback.print_exc()
        finally:
            self.collect()
            if self.vm is not None:
                self.vm.stop()
            if failure is None and self.soft_failures:
                failure = "; ".join(self.soft_failures)
            self.write_summary(failure)
        self.log(
            f"{'FAILED' if failure else 'PASSED'} in {(time.monotonic() - self.started) / 60:.1f} min; "
            f"stages (s): {self.timings}; artefacts: {self.art}"
        )
        return 1 if failure else 0

    def first_boot(self) -> None:
        vm = self.vm
        vm.start("1-first", (vm.share / "cmdline.txt").read_text().strip())
        vm.wait_ssh(self.args.boot_timeout)
        self.log("guest: " + vm.ssh("uname -a; tr -d '\\0' < /proc/device-tree/model; echo").strip())
        vm.ssh("mkdir -p /mnt/pivm && mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=262144 pivm /mnt/pivm")
        out = vm.ssh("sh /mnt/pivm/guest/stage.sh", timeout=600)
        (self.art / "stage.log").write_text(out)
        self.log("staged: " + " | ".join(out.strip().splitlines()[-3:]))
        self.check(
            f"the header is {self.chip} on gpio-sim with a Pi's model string",
            f"gpiochip{self.args.pi5 and 4 or 0}" in out and "Raspberry Pi" in out,
            _grep(out, "gpio-sim"),
        )
        self.log(
            "running the installer: scripts/install-kiosk.sh --start (apt over the network, pip from the shared wheels)"
        )
        t = time.monotonic()
        rc = vm.ssh_rc(
            "cd /home/pi/tabletop-companion && PIP_NO_INDEX=1 PIP_FIND_LINKS=/mnt/pivm/wheels "
            "PIP_DISABLE_PIP_VERSION_CHECK=1 ./scripts/install-kiosk.sh --start > /root/install.log 2>&1",
            timeout=self.args.install_timeout,
        )
        self.timings["install"] = round(time.monotonic() - t, 1)
        vm.fetch("/root/install.log", self.art / "install.log")
        tail = (self.art / "install.log").read_text(errors="replace").strip().splitlines()[-4:]
        self.check("install-kiosk.sh --start exits 0", rc == 0, f"exit {rc}; " + " | ".join(tail))
        self.check(
            "the installer asks for the reboot (config.txt / cmdline.txt changed)",
            any("reboot for I2C" in line for line in tail),
            " | ".join(tail),
        )
        cmdline = vm.ssh("cat /boot/firmware/cmdline.txt").strip()
        config = vm.ssh("cat /boot/firmware/config.txt")
        self.check(
            "cmdline.txt has consoleblank=0 and config.txt the I2C lines",
            "consoleblank=0" in cmdline.split() and "dtparam=i2c_arm=on" in config,
            cmdline,
        )
        state = vm.unit_state()
        self.log(
            f"before the reboot the kiosk is {state.get('ActiveState')}/{state.get('SubState')} "
            f"({state.get('StatusText', '')})"
        )
        vm.poweroff()
        self.cmdline = cmdline

    # -- helpers on the running kiosk ---------------------------------------------------------------------------
    def kiosk_up(self, timeout: float, want_game: bool | None = None, want_hardware: bool = False) -> dict:
        """The unit's state once it is active and READY (on an open game, with ``want_game``; with ``want_hardware``,
        once its status says the buttons, panels and readers are attached: the kiosk opens them just after its
        first frames, after READY)."""

        def probe():
            state = self.vm.unit_state()
            if state.get("ActiveState") != "active" or state.get("SubState") != "running":
                return {} if state.get("ActiveState") != "failed" else self._failed(state)
            if want_game and "game #" not in state.get("StatusText", ""):
                return {}
            if want_hardware and "readers attached" not in state.get("StatusText", ""):
                return {}
            return state

        what = " on an open game" if want_game else ""
        return self.wait_for(
            f"{UNIT} active and READY{what}" + (", hardware attached" if want_hardware else ""), probe, timeout
        )

    def _failed(self, state):
        raise Failure(f"{UNIT} failed: {state.get('Result')} (see journal)")

    def guest(self, *words, timeout: float = 90) -> dict | list:
        out = self.vm.ssh(
            "/usr/local/lib/pivm/pivm-guest.py " + " ".join(shlex.quote(str(w)) for w in words), timeout=timeout
        )
        return json.loads(out.strip().splitlines()[-1])

    def expected_panels(self) -> dict:
        out = self.vm.ssh("/opt/tabletop-companion/venv/bin/python /usr/local/lib/pivm/expected-panels.py", timeout=180)
        return json.loads(out.strip().splitlines()[-1])

    def next_roller(self) -> tuple[str, int]:
        code = (
            "import json,sys; from companion.journal import Journal; from companion.session import GameSession\n"
            "j=Journal('/var/lib/tabletop-companion/journal.sqlite3', read_only=True); g=j.latest_open_game()\n"
            "s=GameSession(g.id, j.events(g.id)); d=s.rules.pending_dice(s.state)\n"
            "print(json.dumps({'game': g.id, 'roller': d.roller if d else None, 'reason': d.reason if d else None}))"
        )
        out = self.vm.ssh("/opt/tabletop-companion/venv/bin/python -c " + shlex.quote(code), timeout=120)
        info = json.loads(out.strip().splitlines()[-1])
        for name, _, _, roll in SEATS:
            if name == info["roller"]:
                return name, roll
        raise Failure(f"no seat rolls next: {info}")

    def press(self, pin: int, wait: float = 30) -> dict:
        result = self.guest("press", pin, 0.25, wait, timeout=wait + 60)
        self.log(
            f"pressed GPIO {pin}: {json.dumps(result.get('new'))[:400]}"
            f" ({result.get('timeout', '')}, seen {result['seen_at'] - result['released_at']:.2f} s after the "
            f"release)"
            if result.get("seen_at")
            else f"pressed GPIO {pin}: no event ({result.get('timeout')})"
        )
        return result

    def screen(self, name: str) -> dict:
        stats = self.vm.screendump(self.art / f"screen-{name}.png")
        self.log(
            f"screendump {name}: black {stats['black']:.0%}, console-like {stats['console_like']:.0%}, "
            f"coloured {stats['coloured']:.1%}, {stats['colours']} colours"
        )
        return stats

    @staticmethod
    def not_console(stats: dict) -> bool:
        """Not black, not the text console (black, VGA greys): the kiosk's dark-blue background."""
        return stats["black"] < 0.5 and stats["console_like"] < 0.5 and stats["colours"] >= 8

    def is_board(self, stats: dict) -> bool:
        """Not black, not the console, and the seats' colours (the game's player cards)."""
        return self.not_console(stats) and stats["coloured"] > 0.005

    def panels_match(self, tag: str) -> bool:
        """Decode every I²C write since boot; compare the last picture on each channel with the expected one.
        Writes the decoded and expected PNGs (and a diff) under panels/."""
        expected = self.expected_panels()
        trace = self.vm.i2c_trace(self.art / f"i2c-trace-{tag}.txt")
        decoded = pictures.decode(pictures.parse_trace(trace))
        folder = self.art / "panels"
        folder.mkdir(exist_ok=True)
        offset = 2 if self.args.driver == "sh1106" else 0
        ok, notes = True, []
        for channel, seat in enumerate(expected["seats"]):
            wanted = [int(row, 16) for row in seat["rows"]]
            pictures.rows_png(str(folder / f"{tag}-ch{channel}-{seat['name']}-expected.png"), wanted)
            panel = decoded["panels"].get(channel)
            if panel is None:
                ok = False
                notes.append(f"ch{channel}: nothing written")
                continue
            got = panel.picture(offset)
            pictures.rows_png(str(folder / f"{tag}-ch{channel}-{seat['name']}-decoded.png"), got)
            differing = pictures.diff_png(str(folder / f"{tag}-ch{channel}-{seat['name']}-diff.png"), got, wanted)
            notes.append(f"ch{channel} {seat['name']}: {differing} px differ")
            ok = ok and differing == 0
        self.last_panel_note = f"{decoded['stats']}; " + "; ".join(notes)
        return ok

    # -- boot 2: the kiosk after the README's reboot ------------------------------------------------------------
    def second_boot(self) -> None:
        vm = self.vm
        t = time.monotonic()
        vm.start("2-installed", self.cmdline)
        # timed as the power cuts' boots are (power_cut): the baseline they are held to
        home = PictureWatch(self, "1-home", t, want=self.not_console)
        try:
            vm.wait_ssh(self.args.boot_timeout)
            self.home_picture_s = home.wait(max(5.0, 2 * RESUME_LIMIT_S - (time.monotonic() - t)))
            state = self.kiosk_up(self.args.boot_timeout)
        finally:
            home.stop()
        self.log(
            f"kiosk READY {time.monotonic() - t:.0f} s after power-on: {state.get('StatusText')}; {_start_times(state)}"
            "; the home screen on the display "
            + (f"{self.home_picture_s:.0f} s after power-on" if self.home_picture_s is not None else "not seen")
        )
        if self.args.reuse_install:  # the installed disk is older than this checkout: install it again
            self.log("--reuse-install: install-kiosk.sh --start again, from this checkout")
            vm.ssh(
                "mkdir -p /mnt/pivm && (mountpoint -q /mnt/pivm || mount -t 9p -o "
                "trans=virtio,version=9p2000.L,ro,msize=262144 pivm /mnt/pivm) && "
                "rm -rf /home/pi/tabletop-companion && mkdir -p /home/pi/tabletop-companion && "
                "tar -xzf /mnt/pivm/repo.tar.gz -C /home/pi/tabletop-companion"
            )
            rc = vm.ssh_rc(
                "cd /home/pi/tabletop-companion && PIP_NO_INDEX=1 PIP_FIND_LINKS=/mnt/pivm/wheels "
                "PIP_DISABLE_PIP_VERSION_CHECK=1 ./scripts/install-kiosk.sh --start > /root/install.log 2>&1",
                timeout=self.args.install_timeout,
            )
            vm.fetch("/root/install.log", self.art / "install-again.log")
            self.check("install-kiosk.sh --start again exits 0", rc == 0, f"exit {rc}")
            state = self.kiosk_up(self.args.boot_timeout)
        self.check(
            "the unit is active and reported READY (Type=notify)",
            state.get("ActiveState") == "active" and state.get("Type") == "notify",
            f"{state.get('ActiveState')}/{state.get('SubState')}, status {state.get('StatusText')!r}",
        )
        wrong = {
            k: (state.get(k), v)
            for k, v in SANDBOX.items()
            if sorted((state.get(k) or "").split()) != sorted(v.split())
        }
        self.check("the unit's sandbox is the shipped one (systemctl show)", not wrong, str(wrong), fatal=False)
        same = vm.ssh_rc(f"cmp /etc/systemd/system/{UNIT} /home/pi/tabletop-companion/systemd/{UNIT}") == 0
        self.check("the installed unit file is the repository's", same, fatal=False)
        attached = self.kiosk_up(self.args.boot_timeout, want_hardware=True)  # just after the first frames
        self.log(f"buttons, panels and readers attached {time.monotonic() - t:.0f} s after power-on")
        self.check(
            "the status says the hardware is attached, without problems",
            "problems" not in attached.get("StatusText", ""),
            attached.get("StatusText", ""),
            fatal=False,
        )
        log = vm.ssh(f"journalctl -b -u {UNIT} --no-pager -o cat")
        model = "Raspberry Pi 5 Model B Rev 1.0" if self.args.pi5 else "Raspberry Pi 4 Model B Rev 1.4"
        self.check(
            "the log names the lgpio backend and the board model",
            f"GPIO pins: lgpio backend ({model})" in log,
            _grep(log, "GPIO pins"),
            fatal=False,
        )
        self.check(
            "four panels opened behind the TCA9548A, all answering",
            f"opened 4 {self.args.driver} panels (i2c, multiplexer switch)" in log
            and "not answering yet" not in _grep(log, "opened"),
            _grep(log, "opened"),
            fatal=False,
        )
        devices = vm.ssh(
            f"ls -l /proc/$(systemctl show -p MainPID --value {UNIT})/fd | sed 's/.*-> //' | "
            "grep -E '^/dev/(gpiochip|i2c|dri|input)' | sort -u"
        )
        self.log("devices the kiosk holds open: " + " ".join(devices.split()))
        self.check(
            f"the kiosk holds /dev/{self.chip}, /dev/i2c-1, /dev/dri and a /dev/input device",
            all(d in devices for d in (f"/dev/{self.chip}", "/dev/i2c-1", "/dev/dri/", "/dev/input/event")),
            " ".join(devices.split()),
            fatal=False,
        )
        home = self.screen("1-home")
        self.check(
            "the home screen is on the display (not black, not the console)",
            self.not_console(home),
            json.dumps({k: home[k] for k in ("black", "console_like", "coloured", "colours")}),
            fatal=False,
        )

        # a new game with the table buttons: Redo twice (README: the Home screen from the buttons)
        start = self.guest("events")
        start = start[-1]["seq"] if start else 0

        def new_game():
            self.guest("press", REDO_PIN, 0.25, 0, timeout=60)
            self.press(REDO_PIN, wait=20)
            return [e for e in self.guest("events", start) if e["type"] == "game_started"]

        started = self.wait_for("a new game started by pressing Redo twice", new_game, 180, interval=1)
        self.log(f"new game: {json.dumps(started)[:300]}")
        self.game = started[0]["game"]

        name, pin = self.next_roller()
        result = self.press(pin)
        new = result.get("new", [])
        self.check(
            f"a press on GPIO {pin} ({name}'s Roll) is the journal move: {name}'s roll-off roll",
            bool(new)
            and all(e["game"] == self.game for e in new)
            and any(
                e["payload"].get("roller") == name
                or e["payload"].get("network") == name
                or name in json.dumps(e["payload"])
                for e in new
            ),
            json.dumps(new)[:300],
        )
        self.moves = new
        t = time.monotonic()
        self.last_panel_note = ""
        try:
            self.wait_for(
                "the panels' decoded I²C bytes to equal the project's rendering of the game",
                lambda: self.panels_match("boot2"),
                240,
                interval=5,
            )
            ok = True
        except Failure:
            ok = False
        self.check(
            "the I²C bytes, decoded per multiplexer channel and page, rebuild each panel = render_player_panel",
            ok,
            self.last_panel_note,
            fatal=False,
        )
        self.log(f"panels matched {time.monotonic() - t:.0f} s after the move was seen")

        try:
            board = self.wait_for(
                "the game board on the screen (screendump)",
                lambda: (lambda s: s if self.is_board(s) and pictures.thumb_difference(s, home) > 3 else None)(
                    self.screen("2-game")
                ),
                120,
                interval=5,
            )
            detail = f"differs from home by {pictures.thumb_difference(board, home):.1f}"
        except Failure as error:
            board, detail = None, str(error)
        self.check(
            "the screendump is the game board (not black, not the console, not the home screen)",
            bool(board),
            detail,
            fatal=False,
        )

        before = self.guest("events")
        tap = self.guest("tap", *UNDO_TAP, 30, timeout=120)
        new = tap.get("new", [])
        self.log(f"tap on Undo at {UNDO_TAP}: {json.dumps(new)[:300]}")
        self.check(
            "a uinput multitouch tap on the on-screen Undo reaches the app",
            bool(new),
            tap.get("timeout", ""),
            fatal=False,
        )
        settled = self.wait_for(
            "no further event after the tap (the app's move queue idle)",
            lambda: (lambda e: e if e == self.guest("events") else None)(self.guest("events")),
            60,
            interval=3,
        )
        extra = [e for e in settled if e["seq"] > (before[-1]["seq"] if before else 0)]
        undos = [e for e in extra if e["payload"].get("action") == "undo"]
        self.check(
            "the tap reached the app once (one undo, nothing more)",
            len(undos) == 1 and len(extra) == len(new),
            json.dumps(extra)[:300],
            fatal=False,
        )
        self.screen("3-after-tap")

    # -- power cuts ----------------------------------------------------------------------------------------------
    def power_cut(self, how: str) -> None:
        vm = self.vm
        self.kiosk_up(self.args.boot_timeout, want_hardware=True)  # the buttons are open (after the first frames)
        name, pin = self.next_roller()
        result = self.press(pin)
        new = result.get("new", [])
        self.check(f"a move before the power cut ({name}'s roll)", bool(new), result.get("timeout", ""))
        cut_at = time.time()
        if how == "reset":
            vm.qmp("system_reset")
            vm.i2c_text = ""
        else:
            vm.kill()
        after = cut_at - result["seen_at"]
        self.log(
            f"power cut ({'QEMU system_reset' if how == 'reset' else 'kill -9 of QEMU'}) {after:.2f} s after "
            f"the move was in the journal (guest and host clocks)"
        )
        self.check("the cut came within a second of the move", after < 1.0, f"{after:.2f} s", fatal=False)
        t = time.monotonic()
        tag = f"4-after-{how}"
        if how == "kill":
            vm.start(f"{self.boot_name()}-after-kill", self.cmdline)
        else:
            vm.boot_name = f"{self.boot_name()}-after-reset (same serial log)"
        # The picture is watched from the host while the guest boots (QEMU's screendump, nothing in the guest),
        # so the time it appears is known to a second, whatever the checks below take over ssh. The unit is
        # asked about over ssh only once the picture is there: each ssh session costs the guest seconds of CPU
        # under TCG, taken from the kiosk while it starts (nobody logs in to a Pi at the table).
        picture = PictureWatch(self, tag, t)
        try:
            vm.wait_ssh(self.args.boot_timeout)
            # a late picture is still timed (the check below fails on it), not taken for a black screen
            shown_at = picture.wait(max(5.0, 2 * RESUME_LIMIT_S - (time.monotonic() - t)))
            state = self.kiosk_up(self.args.boot_timeout, want_game=True)
            if shown_at is None:  # READY came late: a last look
                shown_at = picture.wait(30)
        finally:
            picture.stop()
        self.screen(tag)
        if shown_at is None:
            self.log(f"no picture of the game within {time.monotonic() - t:.0f} s of the power coming back")
        kept = self.guest("events", new[0]["seq"] - 1)
        self.check(
            "the move is in the journal after the cut",
            [e["seq"] for e in kept[: len(new)]] == [e["seq"] for e in new]
            and all(a["payload"] == b["payload"] for a, b in zip(kept, new)),
            json.dumps(kept)[:300],
        )
        integrity = self.guest("integrity")
        self.check("PRAGMA integrity_check is ok", integrity["integrity_check"] == ["ok"], str(integrity), fatal=False)
        shown = shown_at is not None
        limit, why = float(RESUME_LIMIT_S), f"{RESUME_LIMIT_S} s"
        if self.home_picture_s is not None and RESUME_FACTOR * self.home_picture_s > limit:
            # a host slower than the limit allows (busy cores): held to this run's own normal boot instead
            limit = RESUME_FACTOR * self.home_picture_s
            why = f"{RESUME_FACTOR}x boot 2's {self.home_picture_s:.0f} s to the home screen"
        self.check(
            f"the kiosk shows the game within {limit:.0f} s of the power coming back ({how}; {why})",
            shown and shown_at <= limit,
            ("picture after " + (f"{shown_at:.0f} s ({picture.dumps} screendumps)" if shown else "none"))
            + f"; {state.get('StatusText')}; {_start_times(state)}",
            fatal=False,
        )
        if not shown:
            self.diagnose_black(tag)

    def diagnose_black(self, tag: str) -> None:
        """The screen stayed black on a resumed game: keep the DRM state (which framebuffer is on the plane,
        who made it), then press a button that changes nothing in the game (a refused Sponsor) and see
        whether the picture comes."""
        self.vm.fetch_text(
            "mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug; "
            "cat /sys/kernel/debug/dri/0/state /sys/kernel/debug/dri/0/framebuffer "
            "/sys/kernel/debug/dri/0/clients; cat /sys/class/drm/card0-*/status; "
            "cat /sys/class/graphics/fbcon/cursor_blink; fuser -v /dev/dri/* /dev/tty1",
            self.art / f"dri-{tag}.txt",
        )
        result = self.press(SEATS[3][2])  # NBS's Sponsor: refused during the roll-off, no move
        self.log(f"a press that changes nothing in the game (NBS Sponsor): {json.dumps(result.get('new'))[:200]}")
        try:
            self.wait_for(
                "the picture after that press",
                lambda: (lambda s: s if self.is_board(s) else None)(self.screen(tag + "-after-a-press")),
                60,
                interval=5,
            )
            self.log(
                "the picture came after a button press: the black screen is the resumed kiosk's first "
                "frame not reaching the display, redrawn by the next change"
            )
        except Failure as error:
            self.log(str(error))
        self.vm.fetch_text(
            "cat /sys/kernel/debug/dri/0/state /sys/kernel/debug/dri/0/framebuffer",
            self.art / f"dri-{tag}-after-a-press.txt",
        )

    def boot_name(self) -> str:
        self.boot += 1
        return str(2 + self.boot)

    def watchdog(self) -> None:
        vm = self.vm
        state = vm.unit_state()
        before, pid = int(state["NRestarts"]), state["MainPID"]
        self.log(f"SIGSTOP to the kiosk (pid {pid}, NRestarts {before})")
        vm.ssh(f"kill -STOP {pid}")
        t = time.monotonic()
        after = self.wait_for(
            "the watchdog to kill the stopped UI and systemd to restart it (NRestarts + 1, active again)",
            lambda: (
                lambda s: (
                    s
                    if int(s["NRestarts"]) == before + 1
                    and s["MainPID"] != pid
                    and s["ActiveState"] == "active"
                    and s["SubState"] == "running"
                    else None
                )
            )(vm.unit_state()),
            240,
            interval=3,
        )
        log = vm.ssh(f"journalctl -b -u {UNIT} --no-pager -o cat | grep -i watchdog | tail -3")
        self.check(
            "the watchdog killed the hung UI and it was restarted once",
            int(after["NRestarts"]) == before + 1 and "atchdog" in log,
            f"{time.monotonic() - t:.0f} s; NRestarts {before} -> {after['NRestarts']}; {log.strip()}",
        )

    # -- artefacts ------------------------------------------------------------------------------------------------
    def collect(self) -> None:
        vm = self.vm
        if vm is None or not vm.running():
            return
        try:
            vm.fetch_text("journalctl --no-pager -o short-precise", self.art / "system-journal.txt", timeout=300)
            vm.fetch_text(f"journalctl --no-pager -o short-precise -u {UNIT}", self.art / "kiosk-journal.txt")
            vm.fetch_text("dmesg", self.art / "dmesg.txt")
            vm.fetch_text(f"systemctl status --no-pager -l {UNIT}; systemctl show {UNIT}", self.art / "unit-status.txt")
            self.screen("9-last")
        except Exception as error:  # keep the rest of the artefacts
            self.log(f"collecting the guest's logs failed: {error}")


def _start_times(state: dict) -> str:
    """Where a boot's time went, from the unit's ``systemctl show`` (guest clock, since the kernel started)."""
    try:
        started = int(state["ExecMainStartTimestampMonotonic"]) / 1e6
        ready = int(state["ActiveEnterTimestampMonotonic"]) / 1e6
    except (KeyError, ValueError):
        return "the unit's start times are unknown"
    return f"the kiosk's unit started {started:.0f} s after the kernel, READY {ready - started:.0f} s later"


def _grep(text: str, word: str) -> str:
    return " | ".join(line for line in text.splitlines() if word in line)[-400:]


class PictureWatch:
    """A thread that takes a screendump every ``interval`` s (QMP, from the host: nothing runs in the guest) from
    ``started`` (``time.monotonic()``, the power coming back) until the picture is one ``want`` accepts (default:
    the game's board), after one it does not accept (the boot's black screen or console: not what was on the
    screen before a reset); ``wait`` returns the seconds from ``started`` to that picture, or None. The first
    accepted picture is kept as ``screen-<tag>-first.png``."""

    def __init__(self, run: Run, tag: str, started: float, want=None, interval: float = 1.0) -> None:
        self.run, self.started, self.interval = run, started, interval
        self.want = want or run.is_board
        self.png = run.art / f"screen-{tag}-first.png"
        self.shown_at: float | None = None
        self.cleared = False  # a picture that is not the board came first (the reset cleared the screen)
        self.dumps = 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._watch, name=f"picture-{tag}", daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        while not self.done.is_set():
            taken = time.monotonic()
            try:
                stats = self.run.vm.screendump(self.png)
                self.dumps += 1
                if not self.want(stats):
                    self.cleared = True
                elif self.cleared:  # not the board left on the screen from before the reset
                    self.shown_at = taken - self.started
                    self.done.set()
                    return
            except (Failure, OSError, ValueError, AttributeError):
                pass  # QEMU starting again (kill), or its monitor busy: the next one
            self.done.wait(self.interval)

    def wait(self, timeout: float) -> float | None:
        self.done.wait(timeout)
        return self.shown_at

    def stop(self) -> None:
        self.done.set()
        self.thread.join(60)


class VM:
    """One QEMU process at a time on the cached image's overlay."""

    def __init__(self, run: Run, image: Path, dtb: Path, disk: Path, share: Path, run_dir: Path) -> None:
        self.run, self.image, self.dtb, self.disk, self.share, self.dir = run, image, dtb, disk, share, run_dir
        self.proc: subprocess.Popen | None = None
        self.key = image / "id_ed25519"
        self.sock: socket.socket | None = None
        self.qmp_lock = threading.RLock()
        self.boot_name = ""

    def start(self, name: str, cmdline: str) -> None:
        self.stop()
        self.boot_name = name
        self.i2c_text = ""
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        qmp = self.dir / "qmp.sock"
        qmp.unlink(missing_ok=True)
        serial = self.run.art / f"serial-{name}.log"
        command = [
            *NICE,
            "qemu-system-aarch64",
            "-M",
            "virt",
            "-cpu",
            "cortex-a72",
            "-smp",
            "2",
            "-m",
            "2048",
            "-kernel",
            str(self.image / "vmlinuz"),
            "-initrd",
            str(self.image / "initrd.img"),
            "-dtb",
            str(self.dtb),
            "-append",
            cmdline,
            "-drive",
            f"file={self.disk},if=none,id=disk,format=qcow2",
            "-device",
            "virtio-blk-pci,drive=disk",
            "-netdev",
            f"user,id=net,hostfwd=tcp:127.0.0.1:{self.port}-:22",
            "-device",
            "virtio-net-pci,netdev=net,romfile=",
            "-device",
            "virtio-gpu-pci,xres=800,yres=480",
            "-device",
            "qemu-xhci",
            "-device",
            "usb-kbd",
            "-virtfs",
            f"local,path={self.share},mount_tag=pivm,security_model=none,readonly=on",
            "-serial",
            f"file:{serial}",
            "-qmp",
            f"unix:{qmp},server=on,wait=off",
            "-display",
            "none",
            "-monitor",
            "none",
            "-rtc",
            "base=utc",
        ]
        self.run.log(f"boot {name}: qemu-system-aarch64 (TCG), ssh on 127.0.0.1:{self.port}; cmdline: {cmdline}")
        (self.run.art / f"qemu-{name}.cmd").write_text(shlex.join(command) + "\n")
        self.qemu_log = open(self.run.art / f"qemu-{name}.log", "w")
        self.proc = subprocess.Popen(command, stdout=self.qemu_log, stderr=subprocess.STDOUT)
        self.booted_at = time.monotonic()
        self.run.wait_for("QEMU's QMP socket", lambda: qmp.exists() or self._dead(), 60, interval=0.5)
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(str(qmp))
        self.sock.settimeout(60)
        self.reader = self.sock.makefile("r")
        self.reader.readline()
        self.qmp("qmp_capabilities")

    def _dead(self):
        if self.proc.poll() is not None:
            raise Failure(f"QEMU exited with {self.proc.returncode} (see qemu-{self.boot_name}.log)")
        return False

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def qmp(self, command: str, **arguments) -> dict:
        with self.qmp_lock:
            return self._qmp(command, arguments)

    def _qmp(self, command: str, arguments: dict) -> dict:
        self.sock.sendall(json.dumps({"execute": command, "arguments": arguments}).encode() + b"\n")
        while True:
            line = self.reader.readline()
            if not line:
                raise Failure(f"QMP closed during {command}")
            reply = json.loads(line)
            if "return" in reply:
                return reply["return"]
            if "error" in reply:
                raise Failure(f"QMP {command}: {reply['error']}")

    def ssh_command(self, command: str) -> list[str]:
        return [
            "ssh",
            "-F",
            "/dev/null",
            "-i",
            str(self.key),
            "-p",
            str(self.port),
            "-o",
            "BatchMode=yes",
            "-o",
            "StrictHostKeyChecking=no",
            "-o",
            "UserKnownHostsFile=/dev/null",
            "-o",
            "LogLevel=ERROR",
            "-o",
            "ConnectTimeout=20",
            "-o",
            "ServerAliveInterval=15",
            "root@127.0.0.1",
            command,
        ]

    def ssh(self, command: str, timeout: float = 120) -> str:
        done = subprocess.run(self.ssh_command(command), capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise subprocess.CalledProcessError(done.returncode, command, done.stdout, done.stderr)
        return done.stdout

    def ssh_rc(self, command: str, timeout: float = 120) -> int:
        return subprocess.run(self.ssh_command(command), capture_output=True, timeout=timeout).returncode

    def wait_ssh(self, timeout: float) -> None:
        """Wait up to ``timeout`` s for sshd. About one boot in seven under TCG never answered at all (the
        serial log stops before systemd's user space; the cause is not known): after ``SSH_ATTEMPT_S`` without
        an answer the guest is reset once (QMP ``system_reset``, like pressing a reset button) and waited for
        again. Every such retry is logged, kept in the serial log and counted in summary.json's
        ``ssh_retries``; a second boot without ssh fails the test."""
        t = time.monotonic()
        for attempt in (1, 2):
            left = timeout - (time.monotonic() - t)
            try:
                self.run.wait_for(
                    f"ssh into the guest (boot {self.boot_name}, attempt {attempt})",
                    lambda: self._dead() or self.ssh("true", timeout=60) == "",
                    min(left, SSH_ATTEMPT_S) if attempt == 1 else left,
                    interval=3,
                )
                break
            except Failure as error:
                if attempt == 2 or not self.running() or left <= SSH_ATTEMPT_S:
                    raise
                self.run.ssh_retries += 1
                self.run.log(f"{error}; resetting the guest once (QMP system_reset) and waiting again")
                self.qmp("system_reset")
        self.run.log(f"ssh up {time.monotonic() - t:.0f} s after the wait began")

    def fetch(self, path: str, to: Path) -> None:
        with open(to, "wb") as f:
            subprocess.run(self.ssh_command(f"cat {shlex.quote(path)}"), stdout=f, timeout=300, check=True)

    def fetch_text(self, command: str, to: Path, timeout: float = 120) -> None:
        with open(to, "wb") as f:
            subprocess.run(self.ssh_command(command), stdout=f, stderr=subprocess.STDOUT, timeout=timeout)

    def unit_state(self) -> dict:
        out = self.ssh(f"systemctl show --all {UNIT}", timeout=60)
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    def screendump(self, png: Path) -> dict:
        with self.qmp_lock:  # the picture watch's thread takes them too
            ppm = self.dir / "screen.ppm"
            ppm.unlink(missing_ok=True)
            self.qmp("screendump", filename=str(ppm))
            return pictures.ppm_to_png(str(ppm), str(png))

    def i2c_trace(self, to: Path) -> str:
        """Every I²C write of this boot so far, as ``trace-cmd report -R`` text. ``trace-cmd extract`` reads
        the ring buffer destructively, so each extract is appended to what earlier ones returned."""
        self.ssh(
            "cd /root && rm -f i2c.dat && trace-cmd extract -o i2c.dat >/dev/null 2>&1 && "
            "trace-cmd report -R -i i2c.dat > i2c.txt 2>/dev/null",
            timeout=600,
        )
        part = self.dir / "i2c-part.txt"
        self.fetch("/root/i2c.txt", part)
        self.i2c_text += part.read_text(errors="replace")
        to.write_text(self.i2c_text)
        return self.i2c_text

    def poweroff(self) -> None:
        self.ssh_rc("systemctl poweroff", timeout=60)
        self.run.wait_for("the guest to power off (QEMU to exit)", lambda: self.proc.poll() is not None, 300)
        self.close()

    def kill(self) -> None:
        if self.running():
            self.proc.kill()
            self.proc.wait(60)
        self.close()

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    def stop(self) -> None:
        if self.running():
            try:
                if self.ssh_rc("true", timeout=60) != 0:
                    raise Failure("no ssh")
                self.poweroff()
            except Exception:
                self.kill()
        self.close()


def main() -> int:
    cache_home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", default=str(cache_home / "tabletop-companion" / "pi-vm"))
    parser.add_argument("--artifacts", default=str(REPO / "test-artifacts" / "pi-vm"))
    parser.add_argument("--pi5", action="store_true", help="a Pi 5's revision and model, the header on gpiochip4")
    parser.add_argument("--driver", default="sh1106", help="the panels' driver in the installed config")
    parser.add_argument(
        "--reuse-install",
        action="store_true",
        help="skip the first boot: start from the disk the last run's install left (development)",
    )
    parser.add_argument("--install-timeout", type=float, default=3600, help="seconds for install-kiosk.sh")
    parser.add_argument(
        "--boot-timeout",
        type=float,
        default=900,
        help="seconds for ssh after power-on, and again for the kiosk's READY",
    )
    args = parser.parse_args()
    return Run(args).main()


if __name__ == "__main__":
    sys.exit(main())
