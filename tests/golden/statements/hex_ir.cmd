// The shape of hexadecimal games: 3: lists the amounts whose splits leave three heaps.
check statements/hex_games.game --dump=ir
