table {root}/examples/nim.game # exit 2
