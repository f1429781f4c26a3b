// A command without its FILE.
eval # exit 2
