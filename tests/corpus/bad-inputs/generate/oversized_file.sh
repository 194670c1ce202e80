# Usage: sh oversized_file.sh SKIPSOUND — a 100 MB (sparse) schema file.
f=$(mktemp)
truncate -s 100M "$f"
"$1" parse --schema "$f" "i > 1"
status=$?
rm -f "$f"
exit $status
