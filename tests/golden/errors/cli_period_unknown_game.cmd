// gdsl period with a game the file does not have.
period {case} Nope
