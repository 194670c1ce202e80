"""Scan-time requests and foreign files for skipsound's delta-rs driver (docs/engines.md).

A scan request names a table the driver wrote, a version, and read predicates; for each predicate
it answers the files delta-rs keeps and the rows its query returns:
  fragments  the pyarrow dataset fragments of `DeltaTable.to_pyarrow_dataset()` (each carries the
             stats guarantee delta-rs attaches as its partition expression) left by
             `dataset.get_fragments(filter=...)`, the predicate given as a pyarrow expression
             built here from skipsound's structured form;
  pruned     `DeltaTable.file_uris(file_pruning_predicate=SQL)`: delta-rs's own file skipping;
  rows       `QueryBuilder().register("t", dt).execute("SELECT * FROM t WHERE SQL")`.
A form one of these cannot take is answered `{"unsupported": reason}` for that part; an engine
exception is answered `{"error": message}`. Nothing here judges.

A foreign file is written with pyarrow and committed with the stats the request gives (another
writer's, Delta Spark's dialect) through `DeltaTable.create_write_transaction` with an `AddAction`.
"""
import json
import os
import time
import uuid

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from deltalake import DeltaTable, QueryBuilder
from deltalake.transaction import AddAction


class NotExpressible(Exception):
    """A predicate form the pyarrow expression of the structured form does not cover."""


COMPARISONS = {"=": "__eq__", "<>": "__ne__", "<": "__lt__", "<=": "__le__", ">": "__gt__", ">=": "__ge__"}


def pyarrow_expression(node, arrow_type, value_in):
    """skipsound's structured predicate (docs/engines.md, "Scan time") as a pyarrow expression.
    `arrow_type` and `value_in` are the driver's: a literal becomes a scalar of its column's type."""
    if "column" in node:
        return pc.field(node["column"])
    if "literal" in node:  # an expression, not a bare scalar: `3 = id` compares too
        return pc.scalar(pa.scalar(value_in(node["literal"], node["type"]), type=arrow_type(node["type"])))
    if "compare" in node:
        left, right = (pyarrow_expression(n, arrow_type, value_in) for n in node["operands"])
        return getattr(left, COMPARISONS[node["compare"]])(right)
    if "and" in node or "or" in node:
        left, right = (pyarrow_expression(n, arrow_type, value_in) for n in node.get("and") or node["or"])
        return left & right if "and" in node else left | right
    if "not" in node:
        return ~pyarrow_expression(node["not"], arrow_type, value_in)
    if "is_null" in node:
        return pyarrow_expression(node["is_null"], arrow_type, value_in).is_null()
    if "is_not_null" in node:
        return pyarrow_expression(node["is_not_null"], arrow_type, value_in).is_valid()
    if "starts_with" in node:
        return pc.starts_with(pyarrow_expression(node["starts_with"], arrow_type, value_in), pattern=node["prefix"])
    if "boolean" in node:
        return pc.scalar(node["boolean"])
    raise NotExpressible("a node " + json.dumps(node)[:80])


def relative(dir_, path):
    prefix = os.path.abspath(dir_).rstrip("/") + "/"
    path = path[len("file://"):] if path.startswith("file://") else path
    return path[len(prefix):] if path.startswith(prefix) else path


# delta-rs's file skipping takes comparisons, IS [NOT] NULL, IN, BETWEEN, NOT, AND and OR of columns
# and non-NULL literals only; it refuses the rest with this message.
PRUNING_REFUSAL = "for file skipping: Error during planning: Cannot convert to kernel"


def guarded(part):
    """One part of a scan's answer: its value, or why not."""
    try:
        return part()
    except NotExpressible as e:
        return {"unsupported": "pyarrow expression: " + str(e)}
    except (pa.ArrowNotImplementedError, pa.ArrowTypeError) as e:
        return {"unsupported": "pyarrow: " + type(e).__name__ + ": " + str(e).split("\n")[0][:120]}
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # the engine's own failure (a Rust panic too), reported with its class
        if PRUNING_REFUSAL in str(e):
            return {"unsupported": "a form other than comparisons, IS NULL, IN, NOT, AND, OR "
                                   "of columns and non-NULL literals"}
        return {"error": type(e).__name__ + ": " + str(e).split("\n")[0][:400]}


def scan(request, arrow_type, value_in, value_out):
    started = time.perf_counter()
    handle = DeltaTable(request["dir"], version=request["version"])
    dataset = handle.to_pyarrow_dataset()
    query = QueryBuilder().register("t", handle)
    answers = []
    for predicate in request["predicates"]:
        answer = {}
        if predicate.get("pyarrow") is None:
            answer["fragments"] = {"unsupported": predicate["pyarrow_unsupported"]}
        else:
            answer["fragments"] = guarded(lambda: {"kept": sorted(
                relative(request["dir"], f.path)
                for f in dataset.get_fragments(filter=pyarrow_expression(predicate["pyarrow"], arrow_type, value_in)))})
        answer["pruned"] = guarded(lambda: {"kept": sorted(
            relative(request["dir"], u) for u in handle.file_uris(file_pruning_predicate=predicate["sql"]))})
        answer["query"] = guarded(lambda: {"rows": [
            {k: value_out(v) for k, v in row.items()}
            for row in pa.RecordBatchReader.from_stream(
                query.execute("SELECT * FROM t WHERE " + predicate["sql"])).read_all().to_pylist()]})
        answers.append(answer)
    return {"scans": answers, "timings": {"scan": time.perf_counter() - started}}


def commit_foreign_file(handle, directory, table, stats, commit_properties):
    """Writes `table` as one parquet file and commits its add with the given stats text, as
    another engine's writer would have (its stats dialect, not delta-rs's)."""
    name = "foreign-" + uuid.uuid4().hex + ".parquet"
    path = os.path.join(directory, name)
    pq.write_table(table, path)
    add = AddAction(name, os.path.getsize(path), {}, int(time.time() * 1000), True, stats)
    handle.create_write_transaction([add], mode="append", schema=table.schema, commit_properties=commit_properties)
    return name
