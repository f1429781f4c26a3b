eval {root}/examples/dag_chips.game
