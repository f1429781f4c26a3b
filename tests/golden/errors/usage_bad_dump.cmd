check --dump=nope {root}/examples/nim.game # exit 2
