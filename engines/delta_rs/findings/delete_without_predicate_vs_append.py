"""delta-rs finding (skipsound engine gate, ENGINE MISSED CONFLICT): a DELETE without a predicate
records no read, so it commits after a concurrent append and the appended row survives.

Under the table's default Serializable isolation the commits' order is the serial order: the
append (version 1) and then the delete of every row (version 2) must leave an empty table, or
the delete must abort (as a DELETE with any predicate does). World found by
`skipsound engine-gate --seed 1` (whole-table, trial 14): delete_without_predicate_vs_append.scn.
Needs only deltalake and pyarrow; fails while the bug is there.
"""
import shutil

import pyarrow as pa
from deltalake import DeltaTable, write_deltalake
from deltalake.exceptions import CommitFailedError

path = "delete-without-predicate-table"
shutil.rmtree(path, ignore_errors=True)
write_deltalake(path, pa.table({"id": pa.array([1, 2], pa.int64())}))
deleter = DeltaTable(path, version=0)  # T1 reads version 0
write_deltalake(path, pa.table({"id": pa.array([3], pa.int64())}), mode="append")  # T2 commits version 1
try:
    deleter.delete()  # T1: DELETE FROM t
except CommitFailedError:
    print("T1 aborted: no finding")
else:
    rows = DeltaTable(path).to_pyarrow_table().to_pylist()
    assert rows == [], "DELETE of every row committed after an append, yet the table holds %s" % rows
    print("no finding")
