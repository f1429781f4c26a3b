// gdsl play with a position of an unknown game.
play {case} 'Nimm(3)'
