eval {root}/examples/dawson_chess.game
