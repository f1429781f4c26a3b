// --max-order must be a whole number from 1 to 1000000.
quotient {root}/examples/nim.game Nim --max-order 0 # exit 2
