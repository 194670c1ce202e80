"""delta-rs finding (skipsound engine gate, ENGINE ERROR): a DELETE (or UPDATE) whose predicate
compares an int column with an integer literal by `IS [NOT] DISTINCT FROM` (Spark's `<=>` and its
negation) fails with "Kernel error: Invalid argument error: Invalid comparison operation:
Int32 != Int64" instead of running: the literal is an Int64 and the file-skipping evaluation
compares it with the Int32 column without widening. `x <> -1` on the same table runs, as does
`x IS DISTINCT FROM CAST(-1 AS INT)`. A decimal(10,2) column fails alike (`x IS NOT DISTINCT
FROM 8.25`: "Decimal128(10, 2) <= Float64", while `x = 8.25` runs). Found as
`DELETE WHERE NOT (x <=> -1)` in a wide-dv world, shrunk through delta-rs to one file of one row
and this one DELETE; 39 of 2,500 wide-dv worlds (seed 1) fail so on int columns, 11 on decimal.

The row x = 0 is distinct from -1, so the DELETE must delete it. World:
is_distinct_from_int_literal.scn. Needs only deltalake and pyarrow; fails while the bug is there.
The same root cause shows at scan time: not_distinct_from_file_skipping_error.py.
"""
import shutil

import pyarrow as pa
from deltalake import DeltaTable, write_deltalake

schema = pa.schema([("id", pa.int64()), ("x", pa.int32())])
path = "is-distinct-from-table"
shutil.rmtree(path, ignore_errors=True)
write_deltalake(path, pa.table({"id": [7], "x": [0]}, schema=schema))
try:
    DeltaTable(path).delete("NOT (x IS NOT DISTINCT FROM -1)")
except Exception as e:  # the finding: a well-typed predicate the engine cannot run
    raise AssertionError("DELETE WHERE NOT (x IS NOT DISTINCT FROM -1) failed: %s: %s" % (type(e).__name__, str(e).splitlines()[0]))
rows = DeltaTable(path).to_pyarrow_table().to_pylist()
assert rows == [], "the row x = 0 is distinct from -1, yet the table holds %s" % rows
print("no finding")
