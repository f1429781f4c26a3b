// A census database that cannot be created (/dev/null is not a file).
census '0.1' --to 10 --db /dev/null
