eval {root}/examples/northcott.game
