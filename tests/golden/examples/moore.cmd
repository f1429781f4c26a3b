eval {root}/examples/moore.game
