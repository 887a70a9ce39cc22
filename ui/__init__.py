"""The Kivy touchscreen (and, on a desktop, the simulator window). Screens read the table's views and
post commands; they never change state directly."""
