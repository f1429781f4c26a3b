eval {root}/examples/tour.game
