// gdsl play --seed that is not a whole number.
play {root}/examples/nim.game 'Nim(3)' --seed abc # exit 2
