// --table-file-every with a number of seconds that is not positive.
eval {case} --table-file x.tab --table-file-every 0 # exit 2
