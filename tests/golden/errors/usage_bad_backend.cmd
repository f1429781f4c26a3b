// --backend with a backend gdsl does not have.
eval {root}/examples/nim.game --backend nope # exit 2
