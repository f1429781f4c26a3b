// An option the command does not have.
eval {root}/examples/nim.game --bogus # exit 2
