"""delta-rs finding (skipsound engine gate, ENGINE ERROR): a predicate comparing a decimal(10,2)
column with a decimal literal of another precision fails instead of coercing
("Invalid comparison operation: Decimal128(10, 2) > Decimal128(3, 2)"); DataFusion's own SQL and
Spark widen the literal. (skipsound's DataFusion printer writes decimal literals as plain digits
for this reason.) Needs only deltalake and pyarrow; fails while the bug is there.
"""
import decimal
import shutil

import pyarrow as pa
from deltalake import DeltaTable, write_deltalake

path = "decimal-literal-table"
shutil.rmtree(path, ignore_errors=True)
write_deltalake(path, pa.table({"x": pa.array([decimal.Decimal("1.50"), decimal.Decimal("3.00")], pa.decimal128(10, 2))}))
DeltaTable(path).delete("x > CAST(2.25 AS DECIMAL(3,2))")
assert [r["x"] for r in DeltaTable(path).to_pyarrow_table().to_pylist()] == [decimal.Decimal("1.50")]
print("no finding")
