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
    h = g.hands[seat]
    if g.joker_no_trumps:
        return nt_legal(g, seat, h)
    if g.trick:
        f = h & g.suit_cards[g.led_suit]
        if f:
            return f
    return h


def joker_suits(g: GameState, seat: int) -> int:
    """Suits (bits 0-3) as which ``seat`` may play the joker now (a no-trumps hand)."""
    if g.tricks_left == 1:
        return 0b1111
    h = g.hands[seat] & ~(1 << g.joker)
    played = g.suits_played[seat]
    failed = g.suits_failed[seat]
    sm = g.suit_cards
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
    jb = 1 << g.joker
    if g.trick:
        led = g.led_suit
        f = h & g.suit_cards[led]
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
    g.hands[seat] ^= bit
    trick = g.trick
    if not trick:
        s = g.suit_of[card]
        if s == 4:
            if g.trump_id >= 0:
                s = g.trump_id
                named = -1
            else:
                s = named
        else:
            named = -1
        g.named_suit = named
        g.led_suit = s
        g.follow_cards = g.suit_cards[s]
        if g.joker_no_trumps and card != g.joker:
            g.suits_played[seat] |= 1 << s
    elif g.joker_no_trumps and card != g.joker:
        s = g.suit_of[card]
        if s != g.led_suit:
            g.suits_failed[seat] |= 1 << g.led_suit
        g.suits_played[seat] |= 1 << s
    trick.append(card)
    g.trick_cards |= bit
    if len(trick) < g.dealt_in:
        g.turn = g.next_seat[seat]
    else:
        finish_trick(g)


def finish_trick(g: GameState) -> None:
    """Every seat has played: the winner takes the trick (or the pot grows) and leads next."""
    trick = g.trick
    tm = g.trick_cards
    if g.joker_no_trumps and tm >> g.joker & 1:
        idx = trick.index(g.joker)
    elif g.has_duplicates:
        idx = duplicate_winner(g)
    else:
        # The highest trump, else the highest card of the led suit (ids rise with rank).
        w = tm & g.trump_cards or tm & g.follow_cards
        idx = trick.index(w.bit_length() - 1)
    leader = g.leader
    value = g.trick_value
    if idx >= 0:
        winner = g.orders_from[leader][idx]
        g.won[winner] += value
        g.trick_value = 1
        g.leader = winner
    else:
        winner = -1
        g.trick_value = value + 1
    cards = tuple(trick)
    g.tricks.append(new_trick(Trick, (leader, cards, winner, value, g.named_suit)))
    trick.clear()
    g.trick_cards = 0
    g.follow_cards = -1
    g.tricks_left -= 1
    ev = g.events
    if ev is not None:
        names = g.pack.cards
        ev.append(
            TrickWon(
                leader,
                tuple(names[c] for c in cards),
                winner if winner >= 0 else None,
                value,
            )
        )
    if g.tricks_left:
        g.turn = g.leader
    else:
        end_hand(g)


def duplicate_winner(g: GameState) -> int:
    """Position of the winning card in the trick, or -1 (all cancelled, up the ante)."""
    pk = g.pack
    trick = g.trick
    suit_of, rank_of, face_of = pk.suit_of, pk.rank_of, pk.face_of
    rule = g.rules.duplicates
    trump = g.trump_id
    suits = (trump, g.led_suit) if trump >= 0 else (g.led_suit,)
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
    if g.rules.all_cancelled == "up-the-ante" and g.tricks_left > 1:
        return -1
    # first-highest, and (reading, docs/rules.md) the last trick under up-the-ante too.
    s = trump if trump >= 0 and any(suit_of[c] == trump for c in trick) else g.led_suit
    best = -1
    for i, c in enumerate(trick):
        if suit_of[c] == s and (best < 0 or rank_of[c] > rank_of[trick[best]]):
            best = i
    return best
