// Input gdsl play does not understand: it says what it expects and asks again (on standard output).
play {case} 'Nim(2)' --seed 1 # exit 0
