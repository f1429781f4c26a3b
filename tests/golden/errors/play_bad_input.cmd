// Input gdsl play does not understand: it asks again.
play {case} 'Nim(2)' --seed 1 # exit 0
