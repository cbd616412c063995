"""Type stubs of the native module `ayo._ayo` (Rust, pyo3)."""

from typing import Any

import numpy as np
import numpy.typing as npt

OptionValue = str | int | float | bool | None

def variants() -> list[str]:
    """The names of every variant preset, e.g. ``["oware", "ayo", "ayoayo"]``."""

def describe(variant: str, **options: OptionValue) -> str:
    """The rules summary and action encoding of a variant, as printed by ``ayo rules``."""

class Game:
    """One game of a variant: legal actions, moves, the board, scores and the game's record."""

    def __init__(self, variant: str, first: int = 0, **options: OptionValue) -> None:
        """A new game of ``variant`` (``"oware"`` or ``"oware@1"``), player ``first`` to move.

        Raises ``ValueError`` for an unknown variant, version or option, or a bad option value.
        """
    @staticmethod
    def from_notation(variant: str, notation: str, **options: OptionValue) -> Game:
        """A game starting from ``notation`` (see ``notation()``)."""
    @staticmethod
    def from_record(json: str) -> Game:
        """The game at the end of a JSON game record, every move replayed and checked."""
    @property
    def variant(self) -> str:
        """``"name@version"`` of the variant."""
    @property
    def num_actions(self) -> int: ...
    @property
    def observation_len(self) -> int: ...
    @property
    def board(self) -> list[int]:
        """Seeds per pit in absolute pit order (0..11 for 2 × 6 boards)."""
    @property
    def scores(self) -> list[int]:
        """Seeds each player has taken, South (player 0) first."""
    @property
    def to_play(self) -> int:
        """The player to move (0 or 1), or -1 once the game is over."""
    @property
    def ply(self) -> int:
        """Number of actions played."""
    def legal_actions(self) -> list[int]: ...
    def action_mask(self) -> npt.NDArray[np.bool_]: ...
    def apply(self, action: int) -> None:
        """Plays ``action``; an illegal action raises ``ValueError`` and changes nothing."""
    def is_terminal(self) -> bool: ...
    def returns(self) -> list[float]:
        """+1 win, -1 loss, 0 draw from each player's view; zeros until the end."""
    def observation(self) -> npt.NDArray[np.float32]:
        """The observation from the view of the player to move."""
    def notation(self) -> str: ...
    def hash(self) -> int: ...
    def action_name(self, action: int) -> str: ...
    def record(self) -> str:
        """The game so far as a JSON game record."""
    def clone(self) -> Game: ...
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Any) -> Game: ...
    def __eq__(self, other: object) -> bool: ...
