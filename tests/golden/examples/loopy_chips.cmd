eval {root}/examples/loopy_chips.game
