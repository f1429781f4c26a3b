eval {root}/examples/nim.game
