"""The product a user installs: the wheel and the sdist carry everything the app loads at run time, and the
suite runs against that installed copy, not the checkout.

``./run-tests`` builds the sdist from the checkout, the wheel from that sdist, installs the wheel into
``.venv`` (not editable) and names both files in ``$COMPANION_WHEEL`` / ``$COMPANION_SDIST``. Without them
(pytest started by hand) the files are built here into a temporary folder.

What "the app loads at run time" means here: every file in a package folder of the checkout that is not
Python source (``.kv`` layouts, fonts, images, data), and every file the installer copies into ``/etc``
(``systemd/``). A new ``.kv`` file or font that ``pyproject.toml`` does not ship fails
:func:`test_wheel_ships_every_runtime_file` (it failed on the ``ui = ["kv/*.kv"]`` that left out
``ui/kv/games/``).
"""

from __future__ import annotations

import hashlib
import importlib
import os
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest
from conftest import REPO

PACKAGES = ("companion", "hardware", "ui", "firmware_bridge", "web")
#: Files in package folders that are documentation for people, not loaded by the app (shipped all the same).
NOT_LOADED = {".md"}
#: The installer's files: systemd/X ships as <prefix>/share/tabletop-companion/systemd/X.
SYSTEM_FILES = REPO / "systemd"
SHARE = "share/tabletop-companion/systemd"


def checkout_files() -> list[Path]:
    """Every file under the package folders and ``systemd/`` (no caches)."""
    found = []
    for top in (*PACKAGES, "systemd"):
        for path in sorted((REPO / top).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".pyc", ".pyo"):
                found.append(path)
    return found


def runtime_files() -> list[Path]:
    """The checkout's files that the app or the installer loads at run time: all but Python source and docs."""
    return [path for path in checkout_files() if path.suffix != ".py" and path.suffix not in NOT_LOADED]


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """``{"wheel": path, "sdist": path}``: the files ./run-tests built and installed, or fresh ones."""
    wheel, sdist = os.environ.get("COMPANION_WHEEL"), os.environ.get("COMPANION_SDIST")
    if wheel and sdist:
        return {"wheel": Path(wheel), "sdist": Path(sdist)}
    out = tmp_path_factory.mktemp("dist")
    completed = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(REPO)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stdout[-2000:] + completed.stderr[-2000:]
    return {"wheel": next(out.glob("*.whl")), "sdist": next(out.glob("*.tar.gz"))}


def wheel_contents(wheel: Path) -> dict[str, str]:
    """``{name in the wheel: sha256}``, with ``*.data/data/`` names as they install (relative to the prefix)."""
    contents = {}
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            parts = name.split("/")
            installed = "/".join(parts[2:]) if parts[0].endswith(".data") and parts[1:2] == ["data"] else name
            contents[installed] = digest(archive.read(name))
    return contents


def sdist_contents(sdist: Path) -> dict[str, str]:
    """``{path below the sdist's top folder: sha256}`` for its files."""
    with tarfile.open(sdist) as archive:
        return {
            member.name.split("/", 1)[1]: digest(archive.extractfile(member).read())
            for member in archive.getmembers()
            if member.isfile()
        }


def wheel_name(path: Path) -> str:
    """Where a checkout file is in the wheel (system files under the data prefix)."""
    relative = path.relative_to(REPO)
    if relative.parts[0] == "systemd":
        return f"{SHARE}/{Path(*relative.parts[1:]).as_posix()}"
    return relative.as_posix()


def test_runtime_files_are_found():
    """The scan sees what it must (so the checks below cannot pass by finding nothing)."""
    names = {path.relative_to(REPO).as_posix() for path in runtime_files()}
    assert {
        "ui/kv/home.kv",
        "ui/games/tv_wars/board.kv",
        "systemd/kivy/config.ini",
        "systemd/tabletop-companion.service",
        "web/static/seat.html",
        "web/static/seat.js",
    } <= names


def test_wheel_ships_every_runtime_file(built):
    """Every .kv layout, font, image and data file of the packages, and every file the installer copies, is in
    the wheel with the checkout's bytes."""
    contents = wheel_contents(built["wheel"])
    missing = [wheel_name(path) for path in runtime_files() if wheel_name(path) not in contents]
    assert not missing, f"not in {built['wheel'].name} (add them to pyproject.toml's package data): {missing}"
    changed = [wheel_name(path) for path in runtime_files() if contents[wheel_name(path)] != digest(path.read_bytes())]
    assert not changed, f"differ from the checkout (a stale build?): {changed}"


def test_wheel_ships_every_module(built):
    """Every Python module of the five packages is in the wheel, and nothing that is not in the checkout."""
    contents = wheel_contents(built["wheel"])
    sources = {path.relative_to(REPO).as_posix() for path in checkout_files() if path.suffix == ".py"}
    shipped = {name for name in contents if name.endswith(".py")}
    assert sources - shipped == set(), f"modules missing from the wheel: {sorted(sources - shipped)}"
    assert shipped - sources == set(), f"modules in the wheel but not in the checkout: {sorted(shipped - sources)}"


def test_sdist_ships_every_file_a_build_and_an_install_need(built):
    """The sdist has the packages with their runtime files, the system files, and the installer scripts."""
    contents = sdist_contents(built["sdist"])
    wanted = [path.relative_to(REPO).as_posix() for path in checkout_files()]
    wanted += [
        "pyproject.toml",
        "README.md",
        "wiring.md",
        "scripts/install-kiosk.sh",
        "scripts/uninstall-kiosk.sh",
        "scripts/setup.sh",
    ]
    missing = [name for name in wanted if name not in contents]
    assert not missing, f"not in {built['sdist'].name} (MANIFEST.in / package data): {missing}"


def test_the_suite_imports_the_installed_package():
    """Every package the tests use is the installed copy in the environment's site-packages, not the checkout."""
    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    for name in PACKAGES:
        location = Path(importlib.import_module(name).__file__).resolve()
        assert site in location.parents, f"{name} imported from {location}, not from {site}"


def test_python_started_by_the_tests_imports_the_installed_package():
    """A Python the tests start in the checkout (as many do, with cwd=REPO) imports the installed copy too:
    ./run-tests sets PYTHONSAFEPATH, so the working directory is not on sys.path."""
    code = "import companion, hardware, ui, firmware_bridge as f; print(companion.__file__, ui.__file__, f.__file__)"
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=str(REPO), timeout=60)
    assert completed.returncode == 0, completed.stderr
    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    for location in completed.stdout.split():
        assert site in Path(location).resolve().parents, f"imported from the checkout: {location}"


def test_installed_kv_files_are_the_ones_the_app_loads():
    """What the installed app loads (ui.boards.kv_files()) is every .kv file of the checkout, from site-packages."""
    from ui.boards import kv_files

    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    loaded = kv_files()
    assert all(site in path.resolve().parents for path in loaded), loaded
    relative = {path.resolve().relative_to(site).as_posix() for path in loaded}
    expected = {path.relative_to(REPO).as_posix() for path in (REPO / "ui").rglob("*.kv")}
    assert relative == expected


def test_installed_system_files_are_in_the_prefix():
    """The installer takes its files from <venv>/share/tabletop-companion/systemd (the installed wheel)."""
    share = Path(sys.prefix) / SHARE
    for path in SYSTEM_FILES.rglob("*"):
        if path.is_file():
            installed = share / path.relative_to(SYSTEM_FILES)
            assert installed.is_file(), f"{installed} is not installed"
            assert installed.read_bytes() == path.read_bytes(), f"{installed} differs from {path}"


def test_the_installed_entry_point_runs():
    """The console script pip made for the wheel starts and answers (``companion --help``)."""
    script = Path(sys.executable).parent / "companion"
    completed = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=60)
    assert completed.returncode == 0, completed.stderr
    assert "run" in completed.stdout
