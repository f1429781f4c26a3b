// An option given without its value.
eval {root}/examples/nim.game --backend # exit 2
