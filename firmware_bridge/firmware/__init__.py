"""Reference firmware for the Raspberry Pi Pico readers (MicroPython); see README.md in this folder.

This is a package only so that CPython (the tests, the device simulator) can import the shared pure
module :mod:`firmware_bridge.firmware.bridgecore`. On the board the files are copied flat to the root
of the file system (``bridgecore.py`` and one of the ``*_main.py`` files as ``main.py``).
"""
