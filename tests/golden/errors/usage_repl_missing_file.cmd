// gdsl repl with a FILE that cannot be read.
repl no_such_file.game # exit 2
