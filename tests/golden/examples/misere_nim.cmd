eval {root}/examples/misere_nim.game
