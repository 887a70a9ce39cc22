#!/bin/sh
# pi-vm test, first boot: make the plain Debian guest look like a fresh Raspberry Pi OS Lite to the
# installer (what Raspberry Pi OS adds), and put the test's own services in place. Run as root from the
# shared folder (mounted at /mnt/pivm): sh /mnt/pivm/guest/stage.sh
set -eu
S=/mnt/pivm
G=$S/guest
say() { echo "pi-vm stage: $*"; }

say "udev rules of raspberrypi-sys-mods (gpio, i2c, spi groups)"
install -m 0644 $G/99-com.rules /etc/udev/rules.d/99-com.rules
say "/boot/firmware/config.txt and cmdline.txt as on a fresh Raspberry Pi OS Lite"
mkdir -p /boot/firmware
install -m 0644 $G/config.txt /boot/firmware/config.txt
install -m 0644 $S/cmdline.txt /boot/firmware/cmdline.txt
say "persistent journal"
mkdir -p /var/log/journal
systemd-tmpfiles --create --prefix /var/log/journal >/dev/null 2>&1 || true
say "test services: uinput touchscreen, I2C write tracing"
mkdir -p /usr/local/lib/pivm
install -m 0755 $G/fake-touch.py $G/pivm-guest.py $G/i2c-trace-on.sh /usr/local/lib/pivm/
install -m 0644 $G/expected-panels.py /usr/local/lib/pivm/
install -m 0644 $G/pivm-touch.service $G/pivm-i2c-trace.service /etc/systemd/system/
systemctl daemon-reload
systemctl enable --now pivm-touch.service pivm-i2c-trace.service
say "the clone the user runs the installer from: /home/pi/tabletop-companion"
mkdir -p /home/pi
rm -rf /home/pi/tabletop-companion
mkdir /home/pi/tabletop-companion
tar -xzf $S/repo.tar.gz -C /home/pi/tabletop-companion
say "gpio-sim: $(ls /sys/devices/platform/gpio-sim 2>/dev/null | grep gpiochip | tr '\n' ' ')"
say "model: $(tr -d '\0' < /proc/device-tree/model); revision: $(od -An -tx1 /proc/device-tree/system/linux,revision | tr -d ' ')"
say "done"
