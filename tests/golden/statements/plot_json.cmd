// The JSON of `plot`: the table's line, then {"kind":"plot"} with the SVG.
eval statements/plot.game --json
