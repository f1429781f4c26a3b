eval {root}/examples/grundy_game.game
