period {root}/examples/nim.game Nim --max many # exit 2
