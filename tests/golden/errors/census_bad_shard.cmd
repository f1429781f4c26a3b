// A --shard that is not K/N with 1 <= K <= N.
census '0.1' --to 10 --db /nonexistent/x.db --shard 3/2 # exit 2
