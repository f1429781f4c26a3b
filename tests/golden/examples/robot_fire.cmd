eval {root}/examples/robot_fire.game
