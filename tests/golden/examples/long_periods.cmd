eval {root}/examples/long_periods.game
