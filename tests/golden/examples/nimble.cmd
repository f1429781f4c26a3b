eval {root}/examples/nimble.game
