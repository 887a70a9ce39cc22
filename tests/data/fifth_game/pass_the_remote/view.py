"""What the table sees of a game of Pass the Remote (nothing in it is secret)."""

from companion.games import PlayerView, TableView
from pass_the_remote.state import RemoteState


def public_view(state: RemoteState, title: str) -> TableView:
    """One PlayerView per viewer: points as the panel's headline, this turn's points on the holder's panel."""
    players = tuple(
        PlayerView(
            name=v.name,
            colour=v.colour,
            balance=None,
            turn=v.name == state.holder and not (state.winner or state.ended),
            headline=f"{v.points} pts",
            panel_lines=(f"this turn +{state.turn_points}",) if v.name == state.holder else ("waiting",),
        )
        for v in state.viewers
    )
    if state.winner:
        status = f"{state.winner} wins with {state.viewer(state.winner).points} points (rule 5)"
    elif state.ended:
        status = f"Game ended: {state.ended}"
    else:
        status = f"{state.holder} holds the remote: Watch or Pass (rule 2)"
    return TableView(title, players, status=status, finished=bool(state.winner or state.ended))
