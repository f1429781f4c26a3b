// A directory given as FILE.
eval errors/lib # exit 2
