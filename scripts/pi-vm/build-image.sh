#!/usr/bin/env bash
# Builds the emulated Raspberry Pi's disk image from Debian packages only, into the cache directory given
# (normally ${XDG_CACHE_HOME:-~/.cache}/tabletop-companion/pi-vm/<hash of this file and its inputs>):
#
#   scripts/pi-vm/build-image.sh CACHE_DIR
#
# Result in CACHE_DIR: disk.raw (ext4, 6 GiB sparse: the root file system, no partition table), vmlinuz and
# initrd.img (booted directly by QEMU), kernel-version, id_ed25519(.pub) (a key made here for the test's ssh
# to root; nothing of the host's), build.log; and the marker `complete` last.
#
# How: mmdebstrap --arch=arm64 (bookworm + updates + security, so that the kernel matches its headers and the
# linux-source package), with an initramfs from a short module list (virtio, ext4) instead of MODULES=most,
# which under emulation would spend most of the build in modinfo (stage 1, cached on its own as
# ../base-<hash>/rootfs). The kernel's gpio-sim driver, which
# Debian does not build, is compiled out of tree in the image (under qemu-user) from linux-source-6.1 with one
# change: irq_sim.c's `handle_simple_irq(irq_to_desc(n))` becomes `generic_handle_irq(n)` (irq_to_desc is
# not exported to modules). Then mke2fs -d makes the file system from the directory (no loop device, no mount).
# Needs root, qemu-user-static, binfmt-support with binfmt_misc mounted, arch-test, mmdebstrap, e2fsprogs.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:?usage: build-image.sh CACHE_DIR}
NICE=(nice -n "${PI_VM_NICE:-19}")
MIRROR=${PI_VM_MIRROR:-http://deb.debian.org/debian}
SECURITY=${PI_VM_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
PACKAGES=systemd-sysv,udev,kmod,dbus,openssh-server,iproute2,netbase,ca-certificates,initramfs-tools,zstd
PACKAGES+=,linux-image-arm64,linux-headers-arm64,linux-source-6.1,make,gcc,libc6-dev
PACKAGES+=,python3,sudo,procps,less,sqlite3,trace-cmd,i2c-tools,psmisc

say() { printf 'pi-vm image: %s\n' "$*"; }
mkdir -p "$OUT"
WORK=$(mktemp -d "$OUT/build.XXXXXX")
ROOTFS=$WORK/rootfs
cleanup() {
    for m in dev/pts dev proc sys; do mountpoint -q "$ROOTFS/$m" 2>/dev/null && umount -l "$ROOTFS/$m"; done
    rm -rf "$WORK"
}
trap cleanup EXIT

# Stage 1, the slow one, cached on its own beside the images (keyed by the mmdebstrap call below), so that a
# change to the second stage does not repeat it: the Debian system as mmdebstrap installs it.
BASE_KEY=$({ sed -n '/^# --- stage 1/,/^# --- end of stage 1/p' "${BASH_SOURCE[0]}"; echo "$PACKAGES $MIRROR $SECURITY"; } \
           | sha256sum | cut -c1-16)
BASE=$(dirname "$OUT")/base-$BASE_KEY
# --- stage 1
if [ ! -e "$BASE/complete" ]; then
    rm -rf "$BASE"; mkdir -p "$BASE"
    say "mmdebstrap arm64 bookworm into $BASE (log: $BASE/mmdebstrap.log)"
    "${NICE[@]}" mmdebstrap --arch=arm64 --variant=minbase --include="$PACKAGES" \
        --dpkgopt=force-confold --aptopt='Acquire::Retries "3"' \
        --essential-hook='mkdir -p "$1/etc/initramfs-tools/conf.d"
            printf "MODULES=list\n" > "$1/etc/initramfs-tools/conf.d/pi-vm"
            printf "virtio_pci\nvirtio_blk\next4\n" > "$1/etc/initramfs-tools/modules"' \
        bookworm "$BASE/rootfs" \
        "deb $MIRROR bookworm main" "deb $MIRROR bookworm-updates main" "deb $SECURITY bookworm-security main" \
        > "$BASE/mmdebstrap.log" 2>&1 || { tail -30 "$BASE/mmdebstrap.log"; exit 1; }
    date -u +%FT%TZ > "$BASE/complete"
fi
# --- end of stage 1
cp "$BASE/mmdebstrap.log" "$WORK/build.log"

say "stage 2 on a copy of $BASE/rootfs"
cp -a "$BASE/rootfs" "$ROOTFS"
say "key for the test's ssh (made here, used only for this image)"
ssh-keygen -q -t ed25519 -N "" -C pi-vm-test -f "$WORK/id_ed25519"
mount -t proc proc "$ROOTFS/proc"
mount --bind /dev "$ROOTFS/dev"
"${NICE[@]}" "$HERE/image-customize.sh" "$ROOTFS" "$WORK/id_ed25519.pub" 2>&1 | tee -a "$WORK/build.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || { cp "$WORK/build.log" "$OUT/build.log"; exit 1; }
umount "$ROOTFS/dev" "$ROOTFS/proc"
cp "$WORK/build.log" "$OUT/build.log"

KVER=$(cat "$ROOTFS/etc/pi-vm-kernel-version")
cp "$ROOTFS/boot/vmlinuz-$KVER" "$WORK/vmlinuz"
cp "$ROOTFS/boot/initrd.img-$KVER" "$WORK/initrd.img"
printf '%s\n' "$KVER" > "$WORK/kernel-version"
say "mke2fs -d (kernel $KVER)"
"${NICE[@]}" mke2fs -q -t ext4 -L rootfs -d "$ROOTFS" "$WORK/disk.raw" 6G
rm -rf "$ROOTFS"
for file in disk.raw vmlinuz initrd.img kernel-version id_ed25519 id_ed25519.pub; do mv "$WORK/$file" "$OUT/$file"; done
cp "$WORK/build.log" "$OUT/build.log"
date -u +%FT%TZ > "$OUT/complete"
say "done: $OUT"
