"""Tools beside the product: the demo, the benchmarks, the arena and simulated people. Nothing
in `bot/` or `cogs/` imports them."""
