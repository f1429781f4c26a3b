// gdsl census report of a database that does not exist.
census report errors/lib/no_such.db
