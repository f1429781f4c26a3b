eval {root}/examples/node_kayles_grid.game
