eval {root}/examples/split_two.game
