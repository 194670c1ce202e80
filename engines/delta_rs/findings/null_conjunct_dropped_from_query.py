"""delta-rs finding (skipsound engine gate, scan time, ENGINE WRONG QUERY RESULT): a query whose
WHERE is `<column filter> AND <a conjunct that folds to NULL>` returns the rows the column filter
matches, although `... AND NULL` is never TRUE and SQL returns no row. EXPLAIN shows delta-rs's
table provider taking the folded `Boolean(NULL)` as a full (exact) filter, so DataFusion drops it
from its Filter, and delta-rs's scan applies only the partial filter `id > 0`. Alone, the NULL
conjunct (`WHERE NOT p = CAST(NULL AS VARCHAR)`) returns no row, as it must.
Needs only deltalake and pyarrow; fails while the bug is there.
"""
import shutil

import pyarrow as pa
from deltalake import DeltaTable, QueryBuilder, write_deltalake

path = "null-conjunct-table"
shutil.rmtree(path, ignore_errors=True)
write_deltalake(path, pa.table({"id": pa.array([1, 2], pa.int64()), "p": ["b", "a"]}))


def rows(where):
    query = QueryBuilder().register("t", DeltaTable(path)).execute("SELECT * FROM t WHERE " + where)
    return pa.RecordBatchReader.from_stream(query).read_all().to_pylist()


assert rows("NOT p = CAST(NULL AS VARCHAR)") == []
for where in ["id > 0 AND NOT p = CAST(NULL AS VARCHAR)", "id > 0 AND CAST(NULL AS BOOLEAN)"]:
    assert rows(where) == [], "WHERE " + where + " returns " + str(rows(where)) + ", SQL returns no row"
print("no finding")
