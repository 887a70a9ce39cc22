#!/usr/bin/python3
"""A multitouch touchscreen for the emulated Pi, made with uinput (QEMU 7.2 has no multitouch device).

It looks like the official 7" display's FT5406 (`raspberrypi-ts`: direct multitouch, 800x480, slots,
BTN_TOUCH, ABS_X/ABS_Y copies), so the kiosk's own scan (ui/touch.py) picks it as a multitouch screen and
reads it through mtdev. Runs as a service started before the kiosk (the kiosk scans its devices at start-up)
and taps where told: each line written to the FIFO /run/pivm-touch is `tap X Y` (pixels, origin top left);
every tap done is appended to /run/pivm-touch.log. System Python only (struct, fcntl).
"""

import fcntl
import os
import socket
import struct
import time

UI_SET_EVBIT, UI_SET_KEYBIT, UI_SET_ABSBIT, UI_SET_PROPBIT = 0x40045564, 0x40045565, 0x40045567, 0x4004556E
UI_DEV_CREATE = 0x5501
EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
SYN_REPORT = 0
BTN_TOUCH = 0x14A
ABS_X, ABS_Y = 0, 1
ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0x2F, 0x35, 0x36, 0x39
INPUT_PROP_DIRECT = 1
WIDTH, HEIGHT = 800, 480
FIFO, LOG = "/run/pivm-touch", "/run/pivm-touch.log"


def main() -> None:
    fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
    for ev in (EV_SYN, EV_KEY, EV_ABS):
        fcntl.ioctl(fd, UI_SET_EVBIT, ev)
    fcntl.ioctl(fd, UI_SET_KEYBIT, BTN_TOUCH)
    fcntl.ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT)
    maximum = [0] * 64
    for axis, top in (
        (ABS_X, WIDTH - 1),
        (ABS_Y, HEIGHT - 1),
        (ABS_MT_SLOT, 9),
        (ABS_MT_POSITION_X, WIDTH - 1),
        (ABS_MT_POSITION_Y, HEIGHT - 1),
        (ABS_MT_TRACKING_ID, 65535),
    ):
        fcntl.ioctl(fd, UI_SET_ABSBIT, axis)
        maximum[axis] = top
    # struct uinput_user_dev: name[80], input_id (bustype, vendor, product, version), ff_effects_max,
    # absmax[64], absmin[64], absfuzz[64], absflat[64]
    setup = struct.pack("80sHHHHi64i64i64i64i", b"raspberrypi-ts", 0x19, 0, 0, 1, 0, *maximum, *([0] * 192))
    os.write(fd, setup)
    fcntl.ioctl(fd, UI_DEV_CREATE)

    def emit(*events) -> None:
        data = b"".join(struct.pack("llHHi", 0, 0, kind, code, value) for kind, code, value in events)
        os.write(fd, data + struct.pack("llHHi", 0, 0, EV_SYN, SYN_REPORT, 0))

    if os.path.exists(FIFO):
        os.unlink(FIFO)
    os.mkfifo(FIFO, 0o600)
    tracking = 0
    print("fake touchscreen raspberrypi-ts ready; taps through", FIFO, flush=True)
    notify = os.environ.get("NOTIFY_SOCKET")  # Type=notify: the kiosk starts after the device exists
    if notify:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
            s.connect("\0" + notify[1:] if notify.startswith("@") else notify)
            s.sendall(b"READY=1")
    while True:
        with open(FIFO) as commands:
            for line in commands:
                words = line.split()
                if len(words) != 3 or words[0] != "tap":
                    print("ignored:", line.strip(), flush=True)
                    continue
                x, y = int(words[1]), int(words[2])
                tracking += 1
                emit(
                    (EV_ABS, ABS_MT_SLOT, 0),
                    (EV_ABS, ABS_MT_TRACKING_ID, tracking),
                    (EV_ABS, ABS_MT_POSITION_X, x),
                    (EV_ABS, ABS_MT_POSITION_Y, y),
                    (EV_KEY, BTN_TOUCH, 1),
                    (EV_ABS, ABS_X, x),
                    (EV_ABS, ABS_Y, y),
                )
                time.sleep(0.15)
                emit((EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_TRACKING_ID, -1), (EV_KEY, BTN_TOUCH, 0))
                with open(LOG, "a") as log:
                    log.write(f"{time.time():.3f} tap {x} {y}\n")
                print(f"tap {x} {y}", flush=True)


if __name__ == "__main__":
    main()
