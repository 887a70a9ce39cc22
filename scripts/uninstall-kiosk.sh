#!/usr/bin/env bash
# Removes the Tabletop Companion kiosk that scripts/install-kiosk.sh installed:
#
#   sudo ./scripts/uninstall-kiosk.sh
#
# Stops and disables the service, removes the unit (and its desktop drop-in), /opt/tabletop-companion (the venv),
# /etc/tabletop-companion (config.toml and the Kivy configuration), /etc/modules-load.d/tabletop-companion.conf
# and the shader cache in /var/cache/tabletop-companion.
#
# Kept, and said so at the end:
#   /var/lib/tabletop-companion   the saved games (journal.sqlite3, its backups, exports): never touched
#   the user `companion`          it still owns the saved games (sudo userdel companion removes it)
#   config.txt / cmdline.txt      the I2C lines and consoleblank=0; the originals are the
#                                 *.before-tabletop-companion files beside them
#
# Options:
#   --dry-run    print every action, change nothing
#   --root DIR   remove from DIR instead of / (tests, images): systemctl stop / daemon-reload are printed,
#                not run; `systemctl --root=DIR disable` (offline) is run when systemctl is there
#   -h, --help   this text
set -euo pipefail

NAME=tabletop-companion
UNIT=$NAME.service
STATE_DIR=/var/lib/$NAME
DRY_RUN=0 ROOT=""

say()  { printf 'uninstall-kiosk: %s\n' "$*"; }
die()  { printf 'uninstall-kiosk: error: %s\n' "$*" >&2; exit 1; }
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --root) [ $# -ge 2 ] || die "--root needs a directory"; ROOT=$2; shift ;;
        --root=*) ROOT=${1#*=} ;;
        -h|--help) usage; exit 0 ;;
        *) printf 'uninstall-kiosk: unknown option %s (try --help)\n' "$1" >&2; exit 2 ;;
    esac
    shift
done

if [ -n "$ROOT" ]; then
    [ -d "$ROOT" ] || die "--root $ROOT: no such directory"
    ROOT=$(cd "$ROOT" && pwd)
    [ "$ROOT" = / ] && ROOT=""
fi
if [ -n "$ROOT" ]; then
    say "root mode: removing from $ROOT; the running system is not touched"
elif [ "$DRY_RUN" = 0 ] && [ "$(id -u)" -ne 0 ]; then
    die "run it as root: sudo $0 $*"
fi
[ "$DRY_RUN" = 1 ] && say "dry run: nothing is changed"

P() { printf '%s%s' "$ROOT" "$1"; }

system() {   # a command that changes the running system: run it, or only print it
    if [ "$DRY_RUN" = 1 ]; then say "would run: $*"
    elif [ -n "$ROOT" ]; then say "skipped in root mode: $*"
    else say "run: $*"; "$@" || say "(ignored: $* failed)"
    fi
}

remove() {   # remove PATH: a file, symlink or whole directory, if it is there
    local target; target=$(P "$1")
    if [ ! -e "$target" ] && [ ! -L "$target" ]; then say "not there: $1"; return 0; fi
    say "remove $1"
    [ "$DRY_RUN" = 1 ] || rm -rf -- "$target"
}

# 1. stop and disable
if [ -n "$ROOT" ]; then
    system systemctl stop "$UNIT"
    if command -v systemctl >/dev/null 2>&1 && [ -e "$(P /etc/systemd/system/$UNIT)" ]; then
        if [ "$DRY_RUN" = 1 ]; then say "would run: systemctl --root=$ROOT disable $UNIT"
        else say "run: systemctl --root=$ROOT disable $UNIT (offline)"
             systemctl --root="$ROOT" --quiet disable "$UNIT" || say "(ignored: systemctl --root disable failed)"
        fi
    fi
else
    system systemctl disable --now "$UNIT"
fi

# 2. the unit, its drop-ins and any enable symlink left behind
remove "/etc/systemd/system/$UNIT"
remove "/etc/systemd/system/$UNIT.d"
remove "/etc/systemd/system/multi-user.target.wants/$UNIT"
remove "/etc/systemd/system/graphical.target.wants/$UNIT"
system systemctl daemon-reload
[ -n "$ROOT" ] || system systemctl reset-failed "$UNIT"

# 3. the program, its configuration, the module list, the cache
remove "/opt/$NAME"
remove "/etc/$NAME"
remove "/etc/modules-load.d/$NAME.conf"
remove "/var/cache/$NAME"

# 4. what stays
if [ -d "$(P "$STATE_DIR")" ]; then
    say "kept: $STATE_DIR (the saved games); delete it yourself only if you mean it: sudo rm -r $STATE_DIR"
else
    say "no saved games at $STATE_DIR"
fi
say "kept: the user companion (sudo userdel companion), and config.txt / cmdline.txt as they are now" \
    "(the originals: *.before-$NAME in /boot/firmware or /boot)"
say "done"
