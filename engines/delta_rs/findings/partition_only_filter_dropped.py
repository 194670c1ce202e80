"""delta-rs finding (skipsound engine gate, scan time, ENGINE WRONG QUERY RESULT): delta-rs's
table provider reports a filter that reads only partition columns, or no column at all, as fully
handled (EXPLAIN: `full_filters=[...]`), so DataFusion drops it from its Filter; but delta-rs's
scan only prunes files with it and applies no row filter. A form its pruning cannot decide keeps
every file, and the rows are returned unfiltered:
  - on a table partitioned by p, `WHERE p <> p` returns every row (SQL: none, p is never NULL here),
    and `WHERE (p IS NOT DISTINCT FROM 'b') IS NOT DISTINCT FROM FALSE` returns the p = 'b' rows too;
  - on any table, `WHERE id > 0 AND NOT p = CAST(NULL AS VARCHAR)` returns the rows `id > 0` matches:
    the NULL conjunct folds to `Boolean(NULL)`, a filter of no column, and is dropped the same way.
Where p is an ordinary column, and for the NULL conjunct alone, the answers are right. Needs only deltalake and
pyarrow; fails while the bug is there.
"""
import shutil

import pyarrow as pa
from deltalake import DeltaTable, QueryBuilder, write_deltalake

data = pa.table({"id": pa.array([1, 2, 3], pa.int64()), "p": ["a", "b", "b"]})
for path, partitioned in [("partition-filter-table", True), ("plain-filter-table", False)]:
    shutil.rmtree(path, ignore_errors=True)
    write_deltalake(path, data, partition_by=["p"] if partitioned else None)


def ids(path, where):
    query = QueryBuilder().register("t", DeltaTable(path)).execute("SELECT id FROM t WHERE " + where)
    return sorted(r["id"] for r in pa.RecordBatchReader.from_stream(query).read_all().to_pylist())


partition_forms = {"p <> p": [], "(p IS NOT DISTINCT FROM 'b') IS NOT DISTINCT FROM FALSE": [1]}
for where, rows in partition_forms.items():  # right where p is an ordinary column
    assert ids("plain-filter-table", where) == rows, "unpartitioned: WHERE " + where
assert ids("plain-filter-table", "NOT p = CAST(NULL AS VARCHAR)") == []
cases = [("partition-filter-table", where, rows) for where, rows in partition_forms.items()]
cases.append(("plain-filter-table", "id > 0 AND NOT p = CAST(NULL AS VARCHAR)", []))
failures = [path + ": WHERE " + where + " returns ids " + str(ids(path, where)) + ", SQL returns " + str(rows)
            for path, where, rows in cases if ids(path, where) != rows]
assert not failures, "; ".join(failures)
print("no finding")
