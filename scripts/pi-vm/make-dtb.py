#!/usr/bin/env python3
"""Turn QEMU's `virt` device tree into one that looks like a Raspberry Pi to the software.

usage: make-dtb.py VIRT.dtb OUT.dtb [--pi5]

Edits the text form (dtc -O dts): the board's model string and `/system/linux,revision` (what gpiozero and
the companion read), no PL061 GPIO controller nor the gpio-keys node that uses it, and a `gpio-simulator`
node (the kernel's gpio-sim driver, built out of tree in the image) with two banks: the 40-pin header's
58 lines GPIO0..GPIO57 (label pinctrl-bcm2711, so it becomes gpiochip0; on the Pi 5 variant four empty
banks come first so that the header is gpiochip4, label pinctrl-rp1) and the two lines of an `i2c-gpio`
bit-banged adapter that is I²C bus 1 (`/dev/i2c-1`, alias i2c1). Its simulated lines read low when released,
so every byte is acknowledged: the devices "answer" and the bytes are seen by the kernel's i2c tracepoints.
"""

import re
import subprocess
import sys

PI4 = ("Raspberry Pi 4 Model B Rev 1.4", 0xC03114, "pinctrl-bcm2711", 0)
PI5 = ("Raspberry Pi 5 Model B Rev 1.0", 0xC04170, "pinctrl-rp1", 4)


def block_span(text: str, start: int) -> int:
    """Index just past the `};` closing the node whose `{` is the first one at or after `start`."""
    depth, i = 0, text.index("{", start)
    while True:
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return text.index(";", i) + 1
        i += 1


def remove_node(text: str, pattern: str) -> str:
    match = re.search(r"\n\t" + pattern + r"[^\n]*\{", text)
    if not match:
        raise SystemExit(f"make-dtb: no node matching {pattern!r} in QEMU's device tree")
    return text[: match.start()] + text[block_span(text, match.start()) :]


def main() -> None:
    src, out = sys.argv[1], sys.argv[2]
    model, revision, label, chip = PI5 if "--pi5" in sys.argv else PI4
    dts = subprocess.run(
        ["dtc", "-q", "-I", "dtb", "-O", "dts", src], check=True, capture_output=True, text=True
    ).stdout
    dts = re.sub(r'\n\tmodel = "[^"]*";', f'\n\tmodel = "{model}";', dts, count=1)
    dts = remove_node(dts, r"pl061@")
    dts = remove_node(dts, r"gpio-keys")
    names = ", ".join(f'"GPIO{n}"' for n in range(58))
    banks = "".join(
        f"""
\t\tunused{n} {{
\t\t\tgpio-controller;
\t\t\t#gpio-cells = <2>;
\t\t\tngpios = <1>;
\t\t\tgpio-sim,label = "unused{n}";
\t\t}};"""
        for n in range(chip)
    )
    extra = f"""
\tsystem {{
\t\tlinux,revision = <0x{revision:x}>;
\t\tlinux,serial = <0x0 0x10000000>;
\t}};

\taliases {{
\t\ti2c1 = "/i2c-gpio";
\t}};

\tgpio-sim {{
\t\tcompatible = "gpio-simulator";{banks}
\t\theader: header {{
\t\t\tgpio-controller;
\t\t\t#gpio-cells = <2>;
\t\t\tngpios = <58>;
\t\t\tgpio-sim,label = "{label}";
\t\t\tgpio-line-names = {names};
\t\t}};
\t\ti2clines: i2clines {{
\t\t\tgpio-controller;
\t\t\t#gpio-cells = <2>;
\t\t\tngpios = <2>;
\t\t\tgpio-sim,label = "i2c1-lines";
\t\t\tgpio-line-names = "SDA1", "SCL1";
\t\t}};
\t}};

\ti2c-gpio {{
\t\tcompatible = "i2c-gpio";
\t\tsda-gpios = <&i2clines 0 6>;
\t\tscl-gpios = <&i2clines 1 6>;
\t\ti2c-gpio,scl-output-only;
\t\ti2c-gpio,delay-us = <1>;
\t\t#address-cells = <1>;
\t\t#size-cells = <0>;
\t}};
"""
    if "\n\taliases {" in dts:
        raise SystemExit("make-dtb: QEMU's tree already has /aliases; merge not implemented")
    end = dts.rindex("};")
    dts = dts[:end] + extra + dts[end:]
    subprocess.run(["dtc", "-q", "-I", "dts", "-O", "dtb", "-o", out, "-"], input=dts, text=True, check=True)
    with open(out + ".dts", "w") as f:
        f.write(dts)


if __name__ == "__main__":
    main()
