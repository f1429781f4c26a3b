// the same as JSON: positions and positions_shown
eval --json {case}
