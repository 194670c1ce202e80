"""delta-rs finding (skipsound engine gate, ENGINE ERROR): a stale DELETE or UPDATE whose predicate
holds a NaN literal fails its conflict check with "Schema error: No field named "NaN"" instead of
committing or aborting. delta-rs simplifies `x = 1.0 OR x = CAST('NaN' AS DOUBLE)` and writes it
back as SQL text, `x = 1 OR x = NaN` (the commitInfo's predicate shows it); the conflict checker
parses that text again, and bare `NaN` is a column name there. The same DELETE on a fresh handle
commits. (Found as `x BETWEEN ... OR x BETWEEN CAST('NaN' AS DOUBLE) AND CAST('NaN' AS DOUBLE)`,
which delta-rs simplifies to `x = NaN` too.)

The serial order (append, then delete) deletes the row x = 1.0 and keeps the appended one; an
abort would be a (false) conflict, not a bug. World (an UPDATE, shrunk through delta-rs from
mixed trial 166 of seed 1): nan_literal_predicate_conflict_error.scn.
Needs only deltalake and pyarrow; fails while the bug is there.
"""
import shutil

import pyarrow as pa
from deltalake import CommitProperties, DeltaTable, write_deltalake
from deltalake.exceptions import CommitFailedError

schema = pa.schema([("id", pa.int64()), ("x", pa.float64())])
path = "nan-literal-table"
shutil.rmtree(path, ignore_errors=True)
write_deltalake(path, pa.table({"id": [1], "x": [1.0]}, schema=schema))
deleter = DeltaTable(path, version=0)  # T2 reads version 0
write_deltalake(path, pa.table({"id": [2], "x": [5.0]}, schema=schema), mode="append")  # T1
try:
    deleter.delete("x = 1.0 OR x = CAST('NaN' AS DOUBLE)", commit_properties=CommitProperties(max_commit_retries=1))
except CommitFailedError:
    print("T2 aborted: no finding")
except Exception as e:  # the finding: neither a commit nor a conflict
    raise AssertionError("the stale DELETE failed its conflict check: %s: %s" % (type(e).__name__, e))
else:
    rows = sorted(r["id"] for r in DeltaTable(path).to_pyarrow_table().to_pylist())
    assert rows == [2], "the table after append then delete holds ids %s" % rows
    print("no finding")
