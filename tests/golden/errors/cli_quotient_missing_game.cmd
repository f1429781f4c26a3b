// gdsl quotient without its GAME.
quotient {root}/examples/nim.game # exit 2
