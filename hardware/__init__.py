"""Hardware adapters: gpiozero buttons and luma.oled panels. They turn presses into commands posted to
the table and turn the table's public views into panel pictures; they never change state."""
