// --dump with a stage gdsl does not have.
check --dump=nope {root}/examples/nim.game # exit 2
