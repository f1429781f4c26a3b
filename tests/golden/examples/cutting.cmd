eval {root}/examples/cutting.game
