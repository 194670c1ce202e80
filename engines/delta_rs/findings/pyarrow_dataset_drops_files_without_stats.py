"""delta-rs finding (skipsound engine gate, scan time, ENGINE UNSOUND SKIP): a file whose add
records `numRecords` alone (written with parquet statistics off, as a writer without stats does)
gets the pyarrow guarantee `(id >= null) and (id <= null)` from `DeltaTable.to_pyarrow_dataset()`.
That guarantee is never true, so pyarrow rules the file out for any filter: `get_fragments(filter)`
keeps none and `to_table(filter=id < 10)` returns no row, although both rows match. A file without
min and max must get no guarantee on the column. delta-rs's own `file_uris(file_pruning_predicate)`
and its query keep the file. Found by the engine gate in missing-stats and mixed worlds (seed 3,
cross-writer 0.3) and reduced by hand to one file. Needs only deltalake and pyarrow; fails while
the bug is there.
"""
import shutil

import pyarrow as pa
import pyarrow.dataset as pds
from deltalake import ColumnProperties, DeltaTable, WriterProperties, write_deltalake

path = "no-stats-table"
shutil.rmtree(path, ignore_errors=True)
no_stats = WriterProperties(default_column_properties=ColumnProperties(statistics_enabled="NONE"))
write_deltalake(path, pa.table({"id": pa.array([1, 2], pa.int64())}), writer_properties=no_stats)
table = DeltaTable(path)
assert len(table.file_uris(file_pruning_predicate="id < 10")) == 1  # delta-rs's own pruning keeps it
dataset = table.to_pyarrow_dataset()
guarantees = [str(f.partition_expression) for f in dataset.get_fragments()]
rows = dataset.to_table(filter=pds.field("id") < 10).num_rows
assert rows == 2, "to_table(filter=id < 10) returns %d rows of 2 matching; guarantees %s" % (rows, guarantees)
print("no finding")
