// --max that is not a whole number.
period {root}/examples/nim.game Nim --max many # exit 2
