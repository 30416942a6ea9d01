"""Oh Hell for Discord."""
