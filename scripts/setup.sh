# Shared set-up for ./run-companion and ./run-tests (sourced, not run).
# Installs what is missing, once: Debian packages (when root or with password-less sudo), a virtual
# environment in .venv, and the package with the extras asked for. Re-installs when pyproject.toml changes.

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

ensure_venv() {   # ensure_venv EXTRAS   (e.g. "test" or "pi" or "")
    local extras="$1" python="${PYTHON:-python3}"
    command -v "$python" >/dev/null 2>&1 || die "Python 3.11 or newer is needed (sudo apt-get install python3)"
    "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
        || die "Python 3.11 or newer is needed; $("$python" --version) found"
    if [ ! -x .venv/bin/python ]; then
        "$python" -c 'import venv, ensurepip' 2>/dev/null || ensure_debian_packages python3-venv
        echo "set-up: creating .venv" >&2
        "$python" -m venv .venv || die "could not create .venv"
    fi
    local hash; hash=$(sha256sum pyproject.toml | cut -c1-16)
    local stamp=".venv/.installed-$hash-${extras:-none}"
    if [ ! -f "$stamp" ]; then
        echo "set-up: installing the companion into .venv (first run takes a minute)" >&2
        .venv/bin/python -m pip install -q --upgrade pip >&2 || die "pip could not upgrade itself"
        .venv/bin/python -m pip install -q -e ".${extras:+[$extras]}" >&2 || die "pip install failed"
        find .venv -maxdepth 1 -name '.installed-*' ! -name ".installed-$hash-*" -delete   # stale: pyproject changed
        touch "$stamp"
    fi
}

on_raspberry_pi() { grep -q "Raspberry Pi" /proc/device-tree/model 2>/dev/null; }
