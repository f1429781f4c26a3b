eval {root}/examples/georgia_bob.game
