eval {root}/examples/wythoff.game
