# Usage: sh many_transactions.sh SKIPSOUND — a scenario (on stdin) with 65 transactions.
awk 'BEGIN {
  print "schema: id long"
  print "file f0: range id 0 10"
  for (n = 1; n <= 65; n++) printf "T%d: DELETE WHERE id = %d\n", n, n
}' | "$1" scenario /dev/stdin
