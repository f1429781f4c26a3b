eval # exit 2
