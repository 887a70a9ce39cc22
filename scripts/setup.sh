# Shared set-up for ./run-companion and ./run-tests (sourced, not run).
# Installs what is missing, once: Debian packages (when root or with password-less sudo), a virtual
# environment in .venv, and the companion built as a wheel and installed (not editable) with the extras asked
# for. Rebuilds and re-installs when a source file changes.

die() { echo "set-up: $*" >&2; exit 1; }

ensure_debian_packages() {
    command -v dpkg-query >/dev/null 2>&1 || return 0          # not Debian-like: nothing to check
    local missing=()
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if sudo -n true 2>/dev/null; then sudo="sudo"; else
            die "missing Debian packages: ${missing[*]}. Install them with: sudo apt-get install -y ${missing[*]}"
        fi
    fi
    echo "set-up: installing Debian packages: ${missing[*]}" >&2
    $sudo apt-get update -qq || true
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null \
        || die "could not install ${missing[*]}"
}

# The files a build of the companion is made from: when their hash changes, the installed copy is rebuilt.
source_hash() {
    find companion hardware ui firmware_bridge web systemd pyproject.toml MANIFEST.in README.md -type f \
         ! -name '*.py[cod]' ! -path '*/__pycache__/*' -print0 2>/dev/null \
        | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16
}

ensure_venv() {   # ensure_venv EXTRAS   (e.g. "test" or "pi" or "")
    # The companion is installed into .venv the way a user gets it: the sdist is built from the checkout, the
    # wheel from that sdist, and the wheel is pip-installed (not editable). So what runs (and what the suite
    # tests) is exactly what a wheel ships; a file left out of the package fails here first, not on a Pi.
    # Rebuilt (a few seconds) whenever a source file or the package list changes; extras are added as asked.
    local extras="$1" python="${PYTHON:-python3}"
    command -v "$python" >/dev/null 2>&1 || die "Python 3.11 or newer is needed (sudo apt-get install python3)"
    "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
        || die "Python 3.11 or newer is needed; $("$python" --version) found"
    if [ -L .venv ] && [ ! -e .venv ]; then
        die ".venv is a symlink to $(readlink .venv), which does not exist: remove it (rm .venv) and run again"
    fi
    if [ ! -x .venv/bin/python ]; then
        "$python" -c 'import venv, ensurepip' 2>/dev/null || ensure_debian_packages python3-venv
        echo "set-up: creating .venv" >&2
        "$python" -m venv .venv || die "could not create .venv"
    fi
    local hash; hash=$(source_hash)
    local stamp=".venv/.installed-$hash" extras_stamp=".venv/.extras-${extras:-none}"
    local wheel; wheel=$(ls build/dist/tabletop_companion-*.whl 2>/dev/null | head -1 || true)
    [ -f "$stamp" ] && [ -f "$extras_stamp" ] && [ -n "$wheel" ] && return 0
    if [ ! -f .venv/.build-tools ]; then
        echo "set-up: preparing .venv (first run takes a minute)" >&2
        .venv/bin/python -m pip install -q --upgrade pip >&2 || die "pip could not upgrade itself"
        .venv/bin/python -m pip install -q "build>=1.0" "setuptools>=68" >&2 || die "could not install build"
        touch .venv/.build-tools
    fi
    if [ ! -f "$stamp" ] || [ -z "$wheel" ]; then
        echo "set-up: building the companion (sdist, then the wheel from it)" >&2
        mkdir -p build
        rm -rf build/dist build/lib build/bdist.* ./*.egg-info      # stale build files never reach a wheel
        .venv/bin/python -m build --no-isolation --outdir build/dist . >build/build.log 2>&1 \
            || { tail -20 build/build.log >&2; die "building the wheel failed (build/build.log)"; }
        rm -rf ./*.egg-info
        wheel=$(ls build/dist/tabletop_companion-*.whl)
        .venv/bin/python -m pip uninstall -q -y tabletop-companion >/dev/null 2>&1 || true
        find .venv -maxdepth 1 -name '.installed-*' -delete
    fi
    echo "set-up: installing the companion${extras:+ with [$extras]} into .venv" >&2
    .venv/bin/python -m pip install -q "$wheel${extras:+[$extras]}" >&2 || die "pip install failed"
    touch "$stamp" "$extras_stamp"
}

on_raspberry_pi() { grep -q "Raspberry Pi" /proc/device-tree/model 2>/dev/null; }
