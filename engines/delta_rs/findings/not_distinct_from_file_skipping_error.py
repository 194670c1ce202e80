"""delta-rs finding (skipsound engine gate, scan time, ENGINE ERROR): delta-rs's file skipping
fails on `x IS NOT DISTINCT FROM 4` for an int (Int32) column ("Invalid comparison operation:
Int32 <= Int64") instead of coercing the literal, although it takes `x = 4` on the same column and
its query runs the same predicate. Needs only deltalake and pyarrow; fails while the bug is there.
The same root cause fails a DELETE or UPDATE with such a predicate: is_distinct_from_int_literal.py.
"""
import shutil

import pyarrow as pa
from deltalake import DeltaTable, write_deltalake

path = "not-distinct-table"
shutil.rmtree(path, ignore_errors=True)
write_deltalake(path, pa.table({"x": pa.array([4, 9], pa.int32())}))
table = DeltaTable(path)
assert len(table.file_uris(file_pruning_predicate="x = 4")) == 1
assert len(table.file_uris(file_pruning_predicate="x IS NOT DISTINCT FROM 4")) == 1
print("no finding")
