#!/bin/sh
# pi-vm test: record every I2C write from boot on (the kernel's i2c:i2c_write tracepoint, 16 MiB per CPU),
# before the kiosk opens its panels; `trace-cmd extract` reads it back. The simulated bus lines of the
# i2c-gpio adapter come from the device tree; its driver (and i2c-core) are loaded by udev.
set -e
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs tracefs $T
for i in $(seq 1 120); do [ -e /dev/i2c-1 ] || [ -d /sys/bus/i2c/devices/i2c-1 ] && break; sleep 0.5; done
[ -d /sys/bus/i2c/devices/i2c-1 ] || { echo "no I2C bus 1 (i2c-gpio) after 60 s" >&2; exit 1; }
echo 16384 > $T/buffer_size_kb
echo 1 > $T/events/i2c/i2c_write/enable
echo 1 > $T/tracing_on
echo "i2c write tracing on: $(cat /sys/bus/i2c/devices/i2c-1/name)"
