eval {root}/examples/lasker.game
