"""delta-rs finding (skipsound engine gate, ENGINE MISSED CONFLICT): at conflict time delta-rs's
pruning of a winner's added files against the loser's read predicate drops a file of a decimal
column that matches: a stale DELETE WHERE x > 6.75 commits although a concurrent append added
x = 7.25 (stats min = max = 7.25), under Serializable and WriteSerializable, with `6.75` or
`CAST(6.75 AS DECIMAL(10,2))`. The same world with an int or a double column aborts.

The serial order (append, then delete) deletes the appended row. World:
decimal_conflict_skip.scn. Needs only deltalake and pyarrow; fails while the bug is there.
"""
import decimal
import shutil

import pyarrow as pa
from deltalake import DeltaTable, write_deltalake
from deltalake.exceptions import CommitFailedError

schema = pa.schema([("id", pa.int64()), ("x", pa.decimal128(10, 2))])
path = "decimal-conflict-table"
shutil.rmtree(path, ignore_errors=True)
write_deltalake(path, pa.table({"id": [1], "x": [decimal.Decimal("7.00")]}, schema=schema))
deleter = DeltaTable(path, version=0)  # T2 reads version 0
write_deltalake(path, pa.table({"id": [1000], "x": [decimal.Decimal("7.25")]}, schema=schema), mode="append")  # T1
try:
    deleter.delete("x > 6.75")
except CommitFailedError:
    print("T2 aborted: no finding")
else:
    rows = DeltaTable(path).to_pyarrow_table().to_pylist()
    assert rows == [], "DELETE WHERE x > 6.75 committed after an append of x = 7.25, yet the table holds %s" % rows
    print("no finding")
