eval {root}/examples/kayles.game
