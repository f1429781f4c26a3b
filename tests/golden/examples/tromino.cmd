eval {root}/examples/tromino.game
