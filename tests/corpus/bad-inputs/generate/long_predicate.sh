# Usage: sh long_predicate.sh SKIPSOUND — judges a decisions line (on stdin) whose predicate is
# 1.1 MB long: x = 1 OR x = 1 OR ...
awk 'BEGIN {
  p = "x = 1"; while (length(p) < 1100000) p = p " OR " p
  printf "{\"predicate\":\"%s\",\"decision\":\"kept\",\"schema\":{\"type\":\"struct\",\"fields\":[{\"name\":\"x\",\"type\":\"long\"}]},\"stats\":{\"numRecords\":1}}\n", p
}' | "$1" check --decisions /dev/stdin
