eval {root}/examples/take_half.game
