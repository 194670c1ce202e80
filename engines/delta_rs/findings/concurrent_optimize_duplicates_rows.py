"""delta-rs finding (skipsound engine gate, ENGINE MISSED CONFLICT): two concurrent
optimize.compact() calls on the same files both commit. The second removes the files the first
already removed and adds its own compacted copy, so every row is in the table twice.

World found by `skipsound engine-gate --seed 1` (no-data-change, trial 446):
concurrent_optimize_duplicates_rows.scn. Needs only deltalake and pyarrow; fails while the bug is
there.
"""
import shutil

import pyarrow as pa
from deltalake import DeltaTable, write_deltalake
from deltalake.exceptions import CommitFailedError

path = "concurrent-optimize-table"
shutil.rmtree(path, ignore_errors=True)
write_deltalake(path, pa.table({"id": pa.array([1, 2], pa.int64())}))
write_deltalake(path, pa.table({"id": pa.array([3, 4], pa.int64())}), mode="append")
first = DeltaTable(path, version=1)
second = DeltaTable(path, version=1)
first.optimize.compact()  # commits version 2: the two files compacted into one
try:
    second.optimize.compact()  # the same two files, from the stale snapshot
except CommitFailedError:
    pass
ids = sorted(r["id"] for r in DeltaTable(path).to_pyarrow_table().to_pylist())
assert ids == [1, 2, 3, 4], "after two concurrent compactions the table holds ids %s" % ids
print("no finding")
