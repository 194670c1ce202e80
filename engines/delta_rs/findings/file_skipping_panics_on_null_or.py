"""delta-rs finding (skipsound engine gate, scan time, ENGINE ERROR): delta-rs's file skipping
panics (a Rust panic, pyo3's PanicException, which a Python `except Exception` does not catch) on
`CAST(NULL AS BOOLEAN) OR NULL`: "boolean_op failed to downcast right array: Internal(\"could not
cast array of type Null to arrow_array::array::boolean_array::BooleanArray\")". A predicate it
cannot use is otherwise refused with a DeltaError ("Cannot use predicate ... for file skipping").
Needs only deltalake and pyarrow; fails while the bug is there.
"""
import shutil

import pyarrow as pa
from deltalake import DeltaTable, write_deltalake

path = "null-or-table"
shutil.rmtree(path, ignore_errors=True)
write_deltalake(path, pa.table({"x": pa.array([1, 7], pa.int32())}))
try:
    kept = DeltaTable(path).file_uris(file_pruning_predicate="CAST(NULL AS BOOLEAN) OR NULL")
except Exception as e:  # a refusal or an error is an answer; a panic is not an Exception
    kept = type(e).__name__
except BaseException as e:
    raise AssertionError("delta-rs panics: " + type(e).__name__ + ": " + str(e)) from None
print("no finding (answered " + str(kept) + ")")
