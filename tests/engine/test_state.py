"""GameState's fields: each one documented where it is declared, and each one copied."""

from __future__ import annotations

import ast
import inspect

from bot.engine import Game, Settings
from bot.engine import state as state_module
from bot.engine.state import GameState


def _declared() -> dict[str, bool]:
    """Each field annotated in GameState's body, and whether a docstring follows it."""
    tree = ast.parse(inspect.getsource(state_module))
    (cls,) = (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "GameState")
    out: dict[str, bool] = {}
    for i, node in enumerate(cls.body):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            after = cls.body[i + 1] if i + 1 < len(cls.body) else None
            documented = isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
            out[node.target.id] = documented
    return out


def test_every_field_is_declared_and_documented() -> None:
    declared = _declared()
    assert set(declared) == set(GameState.__slots__)
    assert [name for name, documented in declared.items() if not documented] == []


def _mid_hand() -> Game:
    """A game two tricks and a card into its first hand: every field set, lists not empty."""
    g = Game.new(Settings(preset="first-to-101"), players=4, seed=7)
    while len(g.tricks) < 2 or not g.trick:
        m = g.legal_mask(g.turn)
        g.apply_fast(g.turn, (m & -m).bit_length() - 1)
    assert g.hand_number == 1
    return g


def test_copy_carries_every_field_and_shares_no_list() -> None:
    g = _mid_hand()
    c = g.copy()
    for name in GameState.__slots__:
        mine, theirs = getattr(g, name), getattr(c, name)
        assert mine == theirs, name
        if isinstance(mine, list):
            assert mine is not theirs, f"{name} is shared by the copy"
