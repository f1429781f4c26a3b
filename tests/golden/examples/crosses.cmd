eval {root}/examples/crosses.game
