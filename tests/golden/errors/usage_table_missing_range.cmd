// gdsl table without its RANGE.
table {root}/examples/nim.game # exit 2
