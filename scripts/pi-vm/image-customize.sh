#!/usr/bin/env bash
# The second half of build-image.sh (runs on the host; $1 is a copy of the arm64 root file system that
# mmdebstrap made, in which `chroot` runs arm64 programs through qemu-user, with /proc and /dev mounted by
# build-image.sh). $2: the public key the test logs in with.
set -euo pipefail
ROOT=$1 PUBKEY=$2
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
say() { printf 'pi-vm image: %s\n' "$*"; }

KVER=$(ls "$ROOT/lib/modules" | head -n 1)
[ -d "$ROOT/usr/src/linux-headers-$KVER" ] || { echo "no linux-headers-$KVER in the image" >&2; exit 1; }
printf '%s\n' "$KVER" > "$ROOT/etc/pi-vm-kernel-version"
say "kernel $KVER; source $(chroot "$ROOT" dpkg-query -W -f='${Version}' linux-source-6.1)," \
    "image $(chroot "$ROOT" dpkg-query -W -f='${Version}' "linux-image-$KVER")"

say "gpio-sim out of tree from linux-source-6.1"
SRC=$ROOT/usr/src/gpio-sim
mkdir -p "$SRC"
tar -xJf "$ROOT"/usr/src/linux-source-6.1.tar.xz -C "$SRC" --strip-components=3 --wildcards \
    '*/drivers/gpio/gpio-sim.c' '*/drivers/gpio/gpiolib.h' '*/kernel/irq/irq_sim.c'
mv "$SRC/gpio-sim.c" "$SRC/gpio-sim-main.c"
grep -Eq 'handle_simple_irq\(irq_to_desc\([a-z_]+\)\)' "$SRC/irq_sim.c" \
    || { echo "irq_sim.c has changed: no handle_simple_irq(irq_to_desc(...)) to replace" >&2; exit 1; }
sed -Ei 's/handle_simple_irq\(irq_to_desc\(([a-z_]+)\)\)/generic_handle_irq(\1)/' "$SRC/irq_sim.c"
grep -n generic_handle_irq "$SRC/irq_sim.c"
cp "$HERE/gpio-sim-Kbuild" "$SRC/Kbuild"
chroot "$ROOT" make -s -C "/usr/src/linux-headers-$KVER" M=/usr/src/gpio-sim modules
install -D -m 0644 "$SRC/gpio-sim.ko" "$ROOT/lib/modules/$KVER/updates/gpio-sim.ko"
chroot "$ROOT" depmod -a "$KVER"
chroot "$ROOT" modinfo -F alias "/lib/modules/$KVER/updates/gpio-sim.ko" | grep -q gpio-simulator \
    || { echo "gpio-sim.ko has no of:...gpio-simulator alias" >&2; exit 1; }
dpkg --root="$ROOT" --force-architecture --purge linux-source-6.1 >/dev/null 2>&1 || true
rm -f "$ROOT"/usr/src/linux-source-6.1.tar.xz

say "system settings"
printf 'raspberrypi\n' > "$ROOT/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\traspberrypi\n::1\tlocalhost ip6-localhost ip6-loopback\n' > "$ROOT/etc/hosts"
printf '/dev/vda\t/\text4\tdefaults,errors=remount-ro\t0\t1\n' > "$ROOT/etc/fstab"
rm -f "$ROOT/etc/resolv.conf"
printf 'nameserver 10.0.2.3\n' > "$ROOT/etc/resolv.conf"       # QEMU user-mode network's DNS
mkdir -p "$ROOT/etc/systemd/network"
printf '[Match]\nName=en* eth*\n\n[Network]\nDHCP=yes\n' > "$ROOT/etc/systemd/network/10-wired.network"
chroot "$ROOT" systemctl enable systemd-networkd.service >/dev/null 2>&1
install -d -m 0700 "$ROOT/root/.ssh"
install -m 0600 "$PUBKEY" "$ROOT/root/.ssh/authorized_keys"
printf 'UseDNS no\n' > "$ROOT/etc/ssh/sshd_config.d/pi-vm.conf"
# Raspberry Pi OS has these groups (its udev rules give the devices to them); the test adds the rules
for group in gpio i2c spi; do chroot "$ROOT" sh -c "getent group $group >/dev/null || groupadd --system $group"; done
say "customized"
