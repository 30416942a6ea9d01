"""Tricks: which cards a seat may play (following suit, the joker's no-trump rules), playing a
card, and who wins a trick (trumps, duplicates, cancelled cards and the pot)."""

from __future__ import annotations

from bot.engine.actions import TrickWon
from bot.engine.scoring import end_hand
from bot.engine.state import GameState, Trick

new_trick = tuple.__new__
"""Makes a :class:`Trick` from a tuple of its fields without the keyword-taking ``__new__``."""


def card_mask(g: GameState, seat: int) -> int:
    """The cards ``seat`` may play now (the game is in play and it is ``seat``'s turn)."""
    h = g._hands[seat]
    if g._ntj:
        return nt_legal(g, seat, h)
    if g._trick:
        f = h & g._smask[g._led]
        if f:
            return f
    return h


def joker_suits(g: GameState, seat: int) -> int:
    """Suits (bits 0-3) as which ``seat`` may play the joker now (a no-trumps hand)."""
    if g._left == 1:
        return 0b1111
    h = g._hands[seat] & ~(1 << g._joker)
    played = g._played[seat]
    failed = g._failed[seat]
    sm = g._smask
    m = 0
    for s in range(4):
        # Holding s, the player can't have failed s; without s, failing s bars the joker
        # (001: a card played in a suit not followed earlier is a revoke).
        if (not played >> s & 1 if h & sm[s] else True) and not failed >> s & 1:
            m |= 1 << s
    return m


def nt_legal(g: GameState, seat: int, h: int) -> int:
    """The cards of hand ``h`` that ``seat`` may play in a no-trumps hand with a joker."""
    # 001, no trumps: the joker may be played as suit X only if the player has not played
    # X yet, or has run out of X without having failed to follow X, or in the final trick;
    # never as a suit the player has failed to follow (docs/rules.md).
    jb = 1 << g._joker
    if g._trick:
        led = g._led
        f = h & g._smask[led]
        legal = f if f else h & ~jb
        if h & jb and joker_suits(g, seat) >> led & 1:
            legal |= jb
        return legal
    legal = h & ~jb
    if h & jb and joker_suits(g, seat):
        legal |= jb
    return legal


def play(g: GameState, seat: int, card: int, named: int) -> None:
    """Play a legal card (``named``: the suit named for a joker led in no trumps, else -1)."""
    bit = 1 << card
    g._hands[seat] ^= bit
    trick = g._trick
    if not trick:
        s = g._suit_of[card]
        if s == 4:
            if g._trump >= 0:
                s = g._trump
                named = -1
            else:
                s = named
        else:
            named = -1
        g._named = named
        g._led = s
        g._follow = g._smask[s]
        if g._ntj and card != g._joker:
            g._played[seat] |= 1 << s
    elif g._ntj and card != g._joker:
        s = g._suit_of[card]
        if s != g._led:
            g._failed[seat] |= 1 << g._led
        g._played[seat] |= 1 << s
    trick.append(card)
    g._tmask |= bit
    if len(trick) < g._k:
        g.turn = g._next[seat]
    else:
        finish_trick(g)


def finish_trick(g: GameState) -> None:
    """Every seat has played: the winner takes the trick (or the pot grows) and leads next."""
    trick = g._trick
    tm = g._tmask
    if g._ntj and tm >> g._joker & 1:
        idx = trick.index(g._joker)
    elif g._dups:
        idx = duplicate_winner(g)
    else:
        # The highest trump, else the highest card of the led suit (ids rise with rank).
        w = tm & g._tsm or tm & g._follow
        idx = trick.index(w.bit_length() - 1)
    leader = g._leader
    value = g._value
    if idx >= 0:
        winner = g._rot[leader][idx]
        g._won[winner] += value
        g._value = 1
        g._leader = winner
    else:
        winner = -1
        g._value = value + 1
    cards = tuple(trick)
    g._tricks.append(new_trick(Trick, (leader, cards, winner, value, g._named)))
    trick.clear()
    g._tmask = 0
    g._follow = -1
    g._left -= 1
    ev = g._ev
    if ev is not None:
        names = g._pack.cards
        ev.append(
            TrickWon(
                leader,
                tuple(names[c] for c in cards),
                winner if winner >= 0 else None,
                value,
            )
        )
    if g._left:
        g.turn = g._leader
    else:
        end_hand(g)


def duplicate_winner(g: GameState) -> int:
    """Position of the winning card in the trick, or -1 (all cancelled, up the ante)."""
    pk = g._pack
    trick = g._trick
    suit_of, rank_of, face_of = pk.suit_of, pk.rank_of, pk.face_of
    rule = g._rules.duplicates
    trump = g._trump
    suits = (trump, g._led) if trump >= 0 else (g._led,)
    faces = [face_of[c] for c in trick]
    for s in suits:
        pos = [i for i, c in enumerate(trick) if suit_of[c] == s]
        if not pos:
            continue
        if rule == "cancel":
            alive = [i for i in pos if faces.count(faces[i]) == 1]
            if alive:
                return max(alive, key=lambda i: rank_of[trick[i]])
            continue
        best = pos[0]
        for i in pos[1:]:
            rk, bk = rank_of[trick[i]], rank_of[trick[best]]
            if rk > bk or (rk == bk and rule == "later-wins"):
                best = i
        return best
    # Cancellation removed every card that could win.
    if g._rules.all_cancelled == "up-the-ante" and g._left > 1:
        return -1
    # first-highest, and (reading, docs/rules.md) the last trick under up-the-ante too.
    s = trump if trump >= 0 and any(suit_of[c] == trump for c in trick) else g._led
    best = -1
    for i, c in enumerate(trick):
        if suit_of[c] == s and (best < 0 or rank_of[c] > rank_of[trick[best]]):
            best = i
    return best
