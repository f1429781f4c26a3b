eval {root}/examples/turtles.game
