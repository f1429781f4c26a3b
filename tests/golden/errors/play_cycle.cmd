// gdsl play with a game that is not finite: the error comes before the first move.
play {case} 'L(1)' --seed 1
