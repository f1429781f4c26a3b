eval {root}/examples/nim.game --backend nope # exit 2
