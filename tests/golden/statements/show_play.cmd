// gdsl play prints positions and moves by the show form.
play {case} 'NK(62) + NK(1)' --seed 1 # exit 0
