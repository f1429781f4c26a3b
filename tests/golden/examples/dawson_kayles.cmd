eval {root}/examples/dawson_kayles.game
