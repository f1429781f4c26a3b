// What a hexadecimal code stands for: bit 8 is a rule `split3` into three heaps a <= b <= c.
check statements/hex_games.game --dump=desugared
