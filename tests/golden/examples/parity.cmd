eval {root}/examples/parity.game
