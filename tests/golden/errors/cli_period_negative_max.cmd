// gdsl period with a negative --max.
period {case} Nim --max=-5
