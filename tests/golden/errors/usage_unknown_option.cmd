eval {root}/examples/nim.game --bogus # exit 2
