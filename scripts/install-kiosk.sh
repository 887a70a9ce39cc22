#!/usr/bin/env bash
# Installs the Tabletop Companion kiosk on Raspberry Pi OS (Lite or desktop), from the repository this script is
# in. One command, safe to run again (it only changes what is missing or out of date):
#
#   sudo ./scripts/install-kiosk.sh --start
#
# What it does (each step prints one line; --dry-run prints them without doing anything):
#   1. apt-get: the system libraries Kivy needs without a desktop (Mesa GL/EGL/GLES, DRM/GBM, mtdev, SDL2),
#      python3-venv, i2c-tools; only when some are missing (apt-get update first).
#   2. the system user `companion` (no login shell, home /var/lib/tabletop-companion) in the groups
#      gpio i2c spi dialout input video render (a missing group is created, with a warning).
#   3. /opt/tabletop-companion/venv with the companion and its Pi extras: pip install "<repo>[pi]".
#   4. /etc/tabletop-companion/config.toml from systemd/config.toml.example, only if there is none (never
#      overwritten); config.toml.example beside it is refreshed.
#   5. the Kivy configuration: /etc/tabletop-companion/kivy/config.ini (and kivy-desktop/); an edited copy is
#      kept and the shipped one put beside it as config.ini.new.
#   6. /etc/modules-load.d/tabletop-companion.conf (i2c-dev) and, in config.txt (/boot/firmware/config.txt or
#      /boot/config.txt), the lines wiring.md asks for that are missing: dtparam=i2c_arm=on,
#      dtparam=i2c_arm_baudrate=400000 (and dtparam=spi=on with --spi). The original is saved first as
#      config.txt.before-tabletop-companion. consoleblank=0 in cmdline.txt (same backup rule), so the
#      console never blanks the screen.
#   7. the unit: /etc/systemd/system/tabletop-companion.service (plus the desktop drop-in with --desktop, and
#      the web drop-in tabletop-companion.service.d/web.conf, which opens AF_INET/AF_INET6, only while
#      config.toml has [web] enabled = true; removed when it has not), systemctl daemon-reload,
#      systemctl enable; systemctl restart only with --start.
#
# Options:
#   --start          start (or restart) the service at the end; otherwise it starts at the next boot
#   --desktop USER   desktop edition: run the kiosk in USER's desktop session (installs the drop-in
#                    tabletop-companion.service.d/desktop.conf); USER is the auto-login desktop user
#   --lite           back to the Lite set-up: remove that drop-in
#   --spi            also add dtparam=spi=on (SPI OLED panels, wiring.md)
#   --no-venv        leave /opt/tabletop-companion/venv alone (no python3 -m venv, no pip)
#   --no-apt         do not install Debian packages
#   --dry-run        print every action, change nothing
#   --root DIR       install into DIR instead of / (every path written is under DIR: DIR/etc, DIR/opt,
#                    DIR/boot, DIR/var). For tests and image building. Root mode never touches the running
#                    system: useradd/groupadd, apt-get, the venv and pip (root mode implies --no-venv),
#                    daemon-reload and start are printed, not run; `systemctl --root=DIR enable` (offline,
#                    only writes the symlink under DIR) is run when systemctl is there.
#   -h, --help       this text
set -euo pipefail

NAME=tabletop-companion
UNIT=$NAME.service
SERVICE_USER=companion
DEVICE_GROUPS=(gpio i2c spi dialout input video render)
OPT_DIR=/opt/$NAME
VENV=$OPT_DIR/venv
ETC_DIR=/etc/$NAME
STATE_DIR=/var/lib/$NAME
UNIT_DIR=/etc/systemd/system
MODULES_FILE=/etc/modules-load.d/$NAME.conf
BACKUP_SUFFIX=.before-$NAME
# Debian 12 / Raspberry Pi OS Bookworm names. Kivy's wheels bring their own SDL2 but load the system's
# GL/EGL/GLES (Mesa: libgl1-mesa-dri has the Pi's vc4/v3d drivers), DRM and GBM for KMS/DRM output, and
# libmtdev for the touchscreen; a Kivy built by piwheels (32-bit Raspberry Pi OS) links the system SDL2 libraries.
# SDL2 reads evdev itself, so libinput is not needed. python3-dev and gcc: only if pip must build RPi.GPIO/lgpio.
APT_PACKAGES=(python3 python3-venv python3-dev gcc
              libgl1 libegl1 libgles2 libegl-mesa0 libgl1-mesa-dri libgbm1 libdrm2 libudev1 libmtdev1 libxkbcommon0
              libsdl2-2.0-0 libsdl2-image-2.0-0 libsdl2-mixer-2.0-0 libsdl2-ttf-2.0-0
              i2c-tools)

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SRC=$REPO/systemd

DRY_RUN=0 START=0 NO_VENV=0 NO_APT=0 SPI=0 LITE=0 DESKTOP_USER="" ROOT=""

say()  { printf 'install-kiosk: %s\n' "$*"; }
warn() { printf 'install-kiosk: warning: %s\n' "$*" >&2; }
die()  { printf 'install-kiosk: error: %s\n' "$*" >&2; exit 1; }
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }

while [ $# -gt 0 ]; do
    case "$1" in
        --start) START=1 ;;
        --desktop) [ $# -ge 2 ] || die "--desktop needs a user name"; DESKTOP_USER=$2; shift ;;
        --desktop=*) DESKTOP_USER=${1#*=} ;;
        --lite) LITE=1 ;;
        --spi) SPI=1 ;;
        --no-venv) NO_VENV=1 ;;
        --no-apt) NO_APT=1 ;;
        --dry-run) DRY_RUN=1 ;;
        --root) [ $# -ge 2 ] || die "--root needs a directory"; ROOT=$2; shift ;;
        --root=*) ROOT=${1#*=} ;;
        -h|--help) usage; exit 0 ;;
        *) printf 'install-kiosk: unknown option %s (try --help)\n' "$1" >&2; exit 2 ;;
    esac
    shift
done
[ -n "$DESKTOP_USER" ] && [ "$LITE" = 1 ] && die "--desktop and --lite exclude each other"

if [ -n "$ROOT" ]; then
    [ -d "$ROOT" ] || die "--root $ROOT: no such directory"
    ROOT=$(cd "$ROOT" && pwd)
    [ "$ROOT" = / ] && ROOT=""
fi
if [ -n "$ROOT" ]; then
    NO_VENV=1          # root mode: never a real venv or pip (printed instead)
    say "root mode: installing under $ROOT; the running system is not touched"
elif [ "$DRY_RUN" = 0 ] && [ "$(id -u)" -ne 0 ]; then
    die "run it as root: sudo $0 $*"
fi
[ "$DRY_RUN" = 1 ] && say "dry run: nothing is changed"

for file in "$REPO/pyproject.toml" "$SRC/$UNIT" "$SRC/config.toml.example" "$SRC/kivy/config.ini" \
            "$SRC/kivy-desktop/config.ini" "$SRC/modules-load.conf" "$SRC/$UNIT.d/desktop.conf.in" \
            "$SRC/$UNIT.d/web.conf"; do
    [ -f "$file" ] || die "missing $file (run the script from a complete checkout)"
done

P() { printf '%s%s' "$ROOT" "$1"; }          # a system path inside --root

shown() {   # a command as one could paste it into a shell
    local arg out=""
    for arg in "$@"; do
        if [[ -z $arg || $arg =~ [^A-Za-z0-9_./=:,@%+-] ]]; then out+=" '${arg//\'/\'\\\'\'}'"; else out+=" $arg"; fi
    done
    printf '%s' "${out# }"
}

# A command that changes the running system: run it, or only print it (dry run, root mode).
system() {
    if [ "$DRY_RUN" = 1 ]; then say "would run: $(shown "$@")"
    elif [ -n "$ROOT" ]; then say "skipped in root mode: $(shown "$@")"
    else say "run: $(shown "$@")"; "$@"
    fi
}

make_dir() {   # make_dir PATH MODE
    local target; target=$(P "$1")
    [ -d "$target" ] && return 0
    say "create $1/"
    [ "$DRY_RUN" = 1 ] || install -d -m "$2" "$target"
}

put_file() {   # put_file SOURCE PATH MODE: install or update a file the installer owns
    local target; target=$(P "$2")
    if [ -f "$target" ] && cmp -s "$1" "$target"; then say "unchanged: $2"; return 0; fi
    if [ -e "$target" ]; then say "update $2"; else say "install $2"; fi
    [ "$DRY_RUN" = 1 ] || install -D -m "$3" "$1" "$target"
}

put_kept_file() {   # put_kept_file SOURCE PATH MODE: like put_file, but an edited copy is kept (.new beside it)
    local target; target=$(P "$2")
    if [ ! -e "$target" ]; then put_file "$1" "$2" "$3"; return 0; fi
    if cmp -s "$1" "$target"; then say "unchanged: $2"; rm_path "$2.new"; return 0; fi
    say "kept your edited $2; the shipped version is beside it as $2.new (compare: diff $2 $2.new)"
    put_file "$1" "$2.new" "$3"
}

rm_path() {   # rm_path PATH: remove a file or symlink if it is there
    local target; target=$(P "$1")
    [ -e "$target" ] || [ -L "$target" ] || return 0
    say "remove $1"
    [ "$DRY_RUN" = 1 ] || rm -f -- "$target"
}

lookup_user() {   # lookup_user NAME FIELD (1 name, 3 uid, 4 gid, 6 home): DIR/etc/passwd in root mode, else getent
    if [ -n "$ROOT" ] && [ -f "$ROOT/etc/passwd" ]; then
        awk -F: -v u="$1" -v f="$2" '$1 == u { print $f; exit }' "$ROOT/etc/passwd"
    else
        getent passwd "$1" | cut -d: -f"$2" || true
    fi
}

lookup_group_name() {   # lookup_group_name GID
    if [ -n "$ROOT" ] && [ -f "$ROOT/etc/group" ]; then
        awk -F: -v g="$1" '$3 == g { print $1; exit }' "$ROOT/etc/group"
    else
        getent group "$1" | cut -d: -f1 || true
    fi
}

# --- 1. Debian packages ---------------------------------------------------------------------------------
install_packages() {
    if [ "$NO_APT" = 1 ]; then say "Debian packages: skipped (--no-apt)"; return 0; fi
    if [ -n "$ROOT" ]; then
        # which packages the target lacks is only known there: the plan names them all
        system apt-get update
        system env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"
        return 0
    fi
    local missing=() package
    for package in "${APT_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
    done
    if [ ${#missing[@]} -eq 0 ]; then say "Debian packages: all installed"; return 0; fi
    system apt-get update
    system env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

# --- 2. the service user ---------------------------------------------------------------------------------
create_user() {
    local group groups_csv
    groups_csv=$(IFS=,; printf '%s' "${DEVICE_GROUPS[*]}")
    if [ -n "$ROOT" ]; then   # the target's users and groups are not known here
        say "skipped in root mode: groupadd --system GROUP, for each of ${DEVICE_GROUPS[*]} that is missing"
        system useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "Tabletop Companion kiosk" --groups "$groups_csv" "$SERVICE_USER"
        return 0
    fi
    for group in "${DEVICE_GROUPS[@]}"; do
        getent group "$group" >/dev/null && continue
        # Raspberry Pi OS has them all (its udev rules give the devices to them); elsewhere the unit
        # could not even start without them (SupplementaryGroups)
        warn "group $group does not exist (not Raspberry Pi OS?); creating it"
        system groupadd --system "$group"
    done
    if id "$SERVICE_USER" >/dev/null 2>&1; then
        system usermod --append --groups "$groups_csv" "$SERVICE_USER"
    else
        system useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "Tabletop Companion kiosk" --groups "$groups_csv" "$SERVICE_USER"
    fi
}

# --- 3. the virtual environment ---------------------------------------------------------------------------
install_venv() {
    if [ "$NO_VENV" = 1 ]; then
        say "venv: not created and nothing pip-installed (${ROOT:+root mode implies }--no-venv); would run:"
        say "  python3 -m venv $VENV"
        say "  $VENV/bin/python -m pip install --upgrade pip"
        say "  $(shown "$VENV/bin/python" -m pip install --upgrade "$REPO[pi,web]")"
        return 0
    fi
    command -v python3 >/dev/null 2>&1 || die "python3 is missing (apt-get install python3)"
    python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
        || die "Python 3.11 or newer is needed; $(python3 --version) found"
    make_dir "$OPT_DIR" 0755
    if [ ! -x "$VENV/bin/python" ]; then
        system python3 -m venv "$VENV"
    else
        say "venv: $VENV exists"
    fi
    system "$VENV/bin/python" -m pip install --quiet --upgrade pip
    # Not editable: the service runs what was installed, not the checkout (which can change or go away).
    # (pip always rebuilds and reinstalls a local folder, even at the same version number.)
    # [web]: the opt-in web front-end's pure-Python libraries, so enabling it later needs no download; nothing of
    # them is imported (and no socket opened) while [web] is off.
    system "$VENV/bin/python" -m pip install --quiet --upgrade "$REPO[pi,web]"
    # The unit, the configs and the Kivy configs come from the installed wheel (<venv>/share/...), so /etc
    # gets exactly what the installed companion was built with.
    if [ "$DRY_RUN" = 0 ] && [ -d "$VENV/share/$NAME/systemd" ]; then
        SRC=$VENV/share/$NAME/systemd
        say "system files from the installed package: $SRC"
    fi
}

# --- 4-5. configuration files -----------------------------------------------------------------------------
install_config() {
    make_dir "$ETC_DIR" 0755
    put_file "$SRC/config.toml.example" "$ETC_DIR/config.toml.example" 0644
    if [ -e "$(P "$ETC_DIR/config.toml")" ]; then
        say "kept existing $ETC_DIR/config.toml (never overwritten; compare with config.toml.example)"
    else
        put_file "$SRC/config.toml.example" "$ETC_DIR/config.toml" 0644
    fi
    local kivy
    for kivy in kivy kivy-desktop; do
        make_dir "$ETC_DIR/$kivy" 0755
        # Kivy creates these in KIVY_HOME at import; they must exist because the service cannot write there.
        make_dir "$ETC_DIR/$kivy/mods" 0755
        make_dir "$ETC_DIR/$kivy/icon" 0755
        put_kept_file "$SRC/$kivy/config.ini" "$ETC_DIR/$kivy/config.ini" 0644
    done
    put_file "$SRC/modules-load.conf" "$MODULES_FILE" 0644
    make_dir "$STATE_DIR" 0750
    if [ -z "$ROOT" ]; then system chown "$SERVICE_USER:$SERVICE_USER" "$STATE_DIR"; fi
}

# --- 6. config.txt and cmdline.txt ------------------------------------------------------------------------
BOOT_CHANGED=0

backup_once() {   # backup_once PATH: keep the file as it was before this installer first changed it
    local target; target=$(P "$1")
    if [ -e "$target$BACKUP_SUFFIX" ]; then say "backup already there: $1$BACKUP_SUFFIX"; return 0; fi
    say "back up $1 to $1$BACKUP_SUFFIX"
    [ "$DRY_RUN" = 1 ] || cp -p -- "$target" "$target$BACKUP_SUFFIX"
}

has_line() {   # has_line FILE LINE: LINE is there, not commented out (a trailing comment is allowed)
    local line=$2
    grep -Eq "^[[:space:]]*${line//./\\.}[[:space:]]*(#.*)?$" "$1"
}

configure_boot() {
    local boot
    if [ -f "$(P /boot/firmware/config.txt)" ]; then boot=/boot/firmware
    elif [ -f "$(P /boot/config.txt)" ]; then boot=/boot
    else
        warn "no config.txt in /boot/firmware or /boot (not a Raspberry Pi?): enable I2C by hand (wiring.md)"
        return 0
    fi
    local config=$boot/config.txt cmdline=$boot/cmdline.txt
    local wanted=(dtparam=i2c_arm=on dtparam=i2c_arm_baudrate=400000) missing=() line
    [ "$SPI" = 1 ] && wanted+=(dtparam=spi=on)
    for line in "${wanted[@]}"; do has_line "$(P "$config")" "$line" || missing+=("$line"); done
    if [ ${#missing[@]} -eq 0 ]; then
        say "unchanged: $config (has ${wanted[*]})"
    else
        backup_once "$config"
        say "add to $config: ${missing[*]}"
        if [ "$DRY_RUN" = 0 ]; then
            # [all]: the file may end inside a [pi4] or [cm4] section, which would limit the new lines to it
            {
                printf '\n# Tabletop Companion (scripts/install-kiosk.sh): the bus for the OLED panels, see wiring.md\n[all]\n'
                printf '%s\n' "${missing[@]}"
            } >> "$(P "$config")"
        fi
        BOOT_CHANGED=1
    fi
    grep -Eq '^[[:space:]]*dtoverlay=vc4-(f)?kms-v3d' "$(P "$config")" \
        || warn "$config has no dtoverlay=vc4-kms-v3d: the KMS/DRM display driver the kiosk draws with"

    if [ ! -f "$(P "$cmdline")" ]; then
        warn "no $cmdline: console blanking not switched off"
    elif grep -Eq '(^|[[:space:]])consoleblank=0([[:space:]]|$)' "$(P "$cmdline")"; then
        say "unchanged: $cmdline (has consoleblank=0)"
    else
        backup_once "$cmdline"
        say "set consoleblank=0 in $cmdline"
        if [ "$DRY_RUN" = 0 ]; then
            local first rest
            first=$(head -n 1 "$(P "$cmdline")")
            rest=$(tail -n +2 "$(P "$cmdline")")
            if printf '%s' "$first" | grep -Eq '(^|[[:space:]])consoleblank=[^[:space:]]*'; then
                first=$(printf '%s' "$first" | sed -E 's/(^|[[:space:]])consoleblank=[^[:space:]]*/\1consoleblank=0/')
            else
                first="${first%"${first##*[![:space:]]}"} consoleblank=0"
            fi
            { printf '%s\n' "$first"; [ -z "$rest" ] || printf '%s\n' "$rest"; } > "$(P "$cmdline").tmp-$NAME"
            mv -f -- "$(P "$cmdline").tmp-$NAME" "$(P "$cmdline")"
        fi
        BOOT_CHANGED=1
    fi
}

# Whether the installed config.toml has [web] enabled = true (a file that is not valid TOML: not enabled, warned).
web_enabled() {
    local config; config=$(P "$ETC_DIR/config.toml")
    [ -f "$config" ] || return 1
    local answer
    answer=$(python3 -c 'import sys, tomllib
try:
    data = tomllib.load(open(sys.argv[1], "rb"))
except (OSError, ValueError) as error:
    print("broken:", error)
    sys.exit(0)
web = data.get("web", {})
print("yes" if isinstance(web, dict) and web.get("enabled") is True else "no")' "$config" 2>/dev/null || echo "broken: python3 failed")
    case "$answer" in
        yes) return 0 ;;
        no) return 1 ;;
        *) warn "$ETC_DIR/config.toml could not be read ($answer): the web front-end is treated as off"; return 1 ;;
    esac
}

# --- 7. the unit ------------------------------------------------------------------------------------------
install_unit() {
    put_file "$SRC/$UNIT" "$UNIT_DIR/$UNIT" 0644
    local dropin=$UNIT_DIR/$UNIT.d/desktop.conf
    if [ -n "$DESKTOP_USER" ]; then
        local uid gid home group rendered
        uid=$(lookup_user "$DESKTOP_USER" 3)
        [ -n "$uid" ] || die "--desktop $DESKTOP_USER: no such user"
        gid=$(lookup_user "$DESKTOP_USER" 4)
        home=$(lookup_user "$DESKTOP_USER" 6)
        group=$(lookup_group_name "$gid")
        [ -n "$group" ] || group=$gid
        rendered=$(mktemp)
        sed -e "s|@USER@|$DESKTOP_USER|g" -e "s|@GROUP@|$group|g" -e "s|@UID@|$uid|g" -e "s|@HOME@|$home|g" \
            "$SRC/$UNIT.d/desktop.conf.in" > "$rendered"
        make_dir "$UNIT_DIR/$UNIT.d" 0755
        put_file "$rendered" "$dropin" 0644
        rm -f "$rendered"
        say "desktop edition: the kiosk runs in $DESKTOP_USER's desktop session (DISPLAY=:0)"
    elif [ "$LITE" = 1 ]; then
        rm_path "$dropin"
        say "Lite set-up: the kiosk draws on the screen itself (KMS/DRM)"
    elif [ -e "$(P "$dropin")" ]; then
        say "desktop drop-in $dropin stays (--lite removes it)"
    fi

    local web=$UNIT_DIR/$UNIT.d/web.conf
    if web_enabled; then
        make_dir "$UNIT_DIR/$UNIT.d" 0755
        put_file "$SRC/$UNIT.d/web.conf" "$web" 0644
        say "web front-end enabled in $ETC_DIR/config.toml: the service may use IPv4/IPv6 (web.conf)"
    else
        rm_path "$web"
        say "web front-end off: the service has no IP sockets ([web] enabled = true in config.toml, then run this again)"
    fi

    if [ -n "$ROOT" ]; then
        if command -v systemctl >/dev/null 2>&1; then
            if [ "$DRY_RUN" = 1 ]; then say "would run: systemctl --root=$ROOT enable $UNIT"
            else say "run: systemctl --root=$ROOT enable $UNIT (offline)"; systemctl --root="$ROOT" --quiet enable "$UNIT"
            fi
        else
            say "skipped in root mode (no systemctl here): systemctl enable $UNIT"
        fi
        system systemctl daemon-reload
    else
        system systemctl daemon-reload
        system systemctl enable "$UNIT"
    fi
    if [ "$START" = 1 ]; then
        system systemctl restart "$UNIT"
    else
        say "not (re)started now: it starts at every boot (--start, or sudo systemctl restart $UNIT, to run it now)"
    fi
}

install_packages
create_user
install_venv
install_config
configure_boot
install_unit

if [ "$BOOT_CHANGED" = 1 ]; then
    say "done; config.txt / cmdline.txt changed: reboot for I2C and console blanking (sudo reboot)"
else
    say "done"
fi
say "logs: journalctl -u $UNIT -f    saved games: $STATE_DIR"
