// gdsl period without its GAME.
period {root}/examples/nim.game # exit 2
