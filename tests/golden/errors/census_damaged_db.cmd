// A census database that is not an SQLite file at all: refused, left unchanged.
census '0.1' --to 10 --db errors/lib/damaged.ckpt
