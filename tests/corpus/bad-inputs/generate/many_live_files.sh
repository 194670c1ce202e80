# Usage: sh many_live_files.sh SKIPSOUND — a Delta table whose one commit adds 100,001 files.
d=$(mktemp -d)
mkdir "$d/_delta_log"
awk 'BEGIN {
  print "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}"
  print "{\"metaData\":{\"id\":\"t\",\"format\":{\"provider\":\"parquet\",\"options\":{}},\"schemaString\":\"{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":[{\\\"name\\\":\\\"i\\\",\\\"type\\\":\\\"integer\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}}]}\",\"partitionColumns\":[],\"configuration\":{},\"createdTime\":1}}"
  for (n = 0; n <= 100000; n++)
    printf "{\"add\":{\"path\":\"f%d.parquet\",\"partitionValues\":{},\"size\":1,\"modificationTime\":1,\"dataChange\":true}}\n", n
}' > "$d/_delta_log/00000000000000000000.json"
"$1" check --table "$d" "i > 1"
status=$?
rm -rf "$d"
exit $status
