eval {root}/examples/subtraction.game
