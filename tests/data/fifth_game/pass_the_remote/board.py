"""Pass the Remote's touchscreen board: each viewer's points, and the holder's Watch / Pass buttons made from
the rules' ``legal_commands`` (enabled, disabled and explained by them; nothing here knows the rules)."""

from typing import Any

from kivy.uix.button import Button
from kivy.uix.label import Label

from ui.games import GameBoard


class RemoteBoard(GameBoard):
    """Layout in board.kv (ids ``scores``, ``actions``, ``why``)."""

    game_name = "pass-the-remote"

    def update(self, state: Any, view: Any) -> None:
        scores, actions = self.ids.scores, self.ids.actions
        scores.clear_widgets()
        for player in view.players:
            text = f"{'> ' if player.turn else ''}{player.name}  {player.headline}"
            label = Label(text=text, font_size="28sp", color=(1, 1, 0.4, 1) if player.turn else (1, 1, 1, 1))
            label.key_figure = True  # the viewer's points: the layout audit's key figure (tests/kivy/layout_audit.py)
            scores.add_widget(label)
        actions.clear_widgets()
        rules = self.controller.table.session.rules
        holder = next((p.name for p in view.players if p.turn), None)
        reasons = []
        for legal in rules.legal_commands(state, holder) if holder else ():
            button = Button(text=legal.label, font_size="28sp", disabled=not legal.enabled)
            button.legal_kind = legal.kind
            button.bind(on_release=lambda _b, c=legal.command: self.controller.post(c))
            actions.add_widget(button)
            if not legal.enabled:
                reasons.append(f"{legal.label}: {legal.reason} ({legal.rule})")
        self.ids.why.text = reasons[0] if reasons else view.status
