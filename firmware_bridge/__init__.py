"""Serial dice and tile readers (pyserial). The protocol, host side and device simulator are a later issue
(see the issue tracker); the core side of the dice port is :class:`companion.dice.DiceReaderPort`."""
