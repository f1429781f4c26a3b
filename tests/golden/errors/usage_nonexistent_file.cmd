eval no_such_file.game # exit 2
