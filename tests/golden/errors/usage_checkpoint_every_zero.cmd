// --checkpoint-every with a number of seconds that is not positive.
eval {case} --checkpoint x.ckpt --checkpoint-every 0 # exit 2
