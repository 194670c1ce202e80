"""delta-rs finding (skipsound engine gate, ENGINE MISSED CONFLICT): delta-rs writes timestamp
stats cut to the millisecond (max "2024-03-10T02:00:00.004Z" for 02:00:00.004500) as Delta Spark
does, but its conflict-time skipping reads that max as exact: a stale DELETE WHERE
x >= 02:00:00.004250 prunes a concurrent append holding 02:00:00.004500 and commits. A reader
must widen a timestamp max by 999 microseconds (docs/semantics.md §4). The serial order (append,
then delete) deletes the appended row.

World found by `skipsound engine-gate --seed 1` (overlapping, trial 1632):
timestamp_max_truncated.scn. Needs only deltalake and pyarrow; fails while the bug is there.
"""
import datetime
import shutil

import pyarrow as pa
from deltalake import DeltaTable, write_deltalake
from deltalake.exceptions import CommitFailedError

utc = datetime.timezone.utc
schema = pa.schema([("id", pa.int64()), ("x", pa.timestamp("us", tz="UTC"))])
path = "timestamp-max-table"
shutil.rmtree(path, ignore_errors=True)
write_deltalake(path, pa.table({"id": [1], "x": [datetime.datetime(2024, 3, 10, 2, 0, 0, 4250, tzinfo=utc)]}, schema=schema))
deleter = DeltaTable(path, version=0)
write_deltalake(path, pa.table({"id": [2], "x": [datetime.datetime(2024, 3, 10, 2, 0, 0, 4500, tzinfo=utc)]}, schema=schema),
                mode="append")
try:
    deleter.delete("x >= arrow_cast('2024-03-10T02:00:00.004250Z', 'Timestamp(Microsecond, Some(\"UTC\"))')")
except CommitFailedError:
    print("the DELETE aborted: no finding")
else:
    rows = DeltaTable(path).to_pyarrow_table().to_pylist()
    assert rows == [], "the DELETE committed after an append of a matching row, yet the table holds %s" % rows
    print("no finding")
