eval {root}/examples/staircase.game
