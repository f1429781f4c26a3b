eval {root}/examples/bash.game
