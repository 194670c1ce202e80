"""delta-rs finding (skipsound engine gate, ENGINE UNSOUND STATS): a double column's stats leave
NaN out of maxValues, though NaN is the greatest double (Spark's order, and DataFusion's: delta-rs
itself evaluates `NaN > 30` as true). Both of delta-rs's skipping paths then drop the NaN row:

  - conflict time: a stale DELETE WHERE x > 30 prunes a concurrent append holding NaN (max 1.0)
    and commits; the serial order (append, then delete) deletes the NaN row;
  - scan time: DELETE WHERE x > 30 skips the file and leaves the NaN row.

World found by `skipsound engine-gate --seed 1` (image-files, trial 13): nan_outside_max.scn.
Needs only deltalake and pyarrow; fails while the bug is there.
"""
import json
import math
import shutil

import pyarrow as pa
from deltalake import DeltaTable, write_deltalake
from deltalake.exceptions import CommitFailedError

schema = pa.schema([("id", pa.int64()), ("x", pa.float64())])
problems = []

path = "nan-conflict-table"
shutil.rmtree(path, ignore_errors=True)
write_deltalake(path, pa.table({"id": [1], "x": [50.0]}, schema=schema))
deleter = DeltaTable(path, version=0)
write_deltalake(path, pa.table({"id": [2, 3], "x": [1.0, math.nan]}, schema=schema), mode="append")
stats = json.loads(json.loads(open(path + "/_delta_log/00000000000000000001.json").read().splitlines()[1])["add"]["stats"])
if not math.isnan(float(stats["maxValues"]["x"])):
    problems.append("maxValues.x is %r for a file holding NaN" % stats["maxValues"]["x"])
try:
    deleter.delete("x > 30")
    if any(r["id"] == 3 for r in DeltaTable(path).to_pyarrow_table().to_pylist()):
        problems.append("conflict time: the stale DELETE WHERE x > 30 committed and the NaN row survived")
except CommitFailedError:
    pass

path = "nan-scan-table"
shutil.rmtree(path, ignore_errors=True)
write_deltalake(path, pa.table({"id": [2, 3], "x": [1.0, math.nan]}, schema=schema))
DeltaTable(path).delete("x > 30")
if any(r["id"] == 3 for r in DeltaTable(path).to_pyarrow_table().to_pylist()):
    problems.append("scan time: DELETE WHERE x > 30 left the NaN row")

assert not problems, "\n".join(problems)
print("no finding")
