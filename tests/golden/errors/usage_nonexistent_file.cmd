// A FILE that does not exist.
eval no_such_file.game # exit 2
