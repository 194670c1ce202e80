"""skipsound's delta-rs driver: one world a line on stdin, one result a line on stdout.

It translates and executes; it judges nothing (docs/engines.md describes the protocol). A world's
initial files are written by delta-rs's own writer, one append each, so their stats are delta-rs's.
Each attempt loads its handle at its start version and runs its operation through the public API,
in the world's order, so a stale handle makes delta-rs's commit loop check the attempt against the
commits written since (its conflict checker, once per winner).
"""
import datetime
import decimal
import json
import math
import os
import sys
import time
import traceback

import pyarrow as pa
import pyarrow.parquet as pq
import deltalake
from deltalake import ColumnProperties, CommitProperties, DeltaTable, WriterProperties, write_deltalake
from scan import commit_foreign_file, scan  # engines/delta_rs/scan.py

ENGINE = "deltalake " + deltalake.__version__
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
# One attempt after the conflict check: the commit loop reads the latest version, checks every
# commit since the handle's version, then writes the next version. Nothing else writes the table
# while a world runs, so that write cannot lose a race and no second check happens. (0 would fail
# at once without checking.)
ONE_CHECK = CommitProperties(max_commit_retries=1)
# A writer without stats: delta-rs takes a file's stats from its parquet statistics, so with those
# off it records numRecords alone, no column bound (a world's file or writer "without stats").
NO_STATS = WriterProperties(default_column_properties=ColumnProperties(statistics_enabled="NONE"))


class Unsupported(Exception):
    """A form of the world delta-rs's public API cannot express."""


def arrow_type(name):
    simple = {"long": pa.int64(), "int": pa.int32(), "double": pa.float64(), "string": pa.string(),
              "date": pa.date32(), "timestamp": pa.timestamp("us", tz="UTC"), "boolean": pa.bool_()}
    if name in simple:
        return simple[name]
    if name.startswith("decimal(") and name.endswith(")"):
        precision, scale = name[len("decimal("):-1].split(",")
        return pa.decimal128(int(precision), int(scale))
    raise Unsupported("column type " + name)


def value_in(v, type_name):
    """A row value of the protocol as the Python value pyarrow takes for the column."""
    if v is None:
        return None
    if type_name == "double":
        return float(v) if isinstance(v, str) else v  # "NaN", "Infinity", "-Infinity"
    if type_name.startswith("decimal("):
        return decimal.Decimal(v)
    if type_name == "date":
        return datetime.date.fromisoformat(v)
    if type_name == "timestamp":
        return EPOCH + datetime.timedelta(microseconds=v)
    return v


def value_out(v):
    if v is None:
        return None
    if isinstance(v, float) and not math.isfinite(v):
        return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, datetime.datetime):
        return (v - EPOCH) // datetime.timedelta(microseconds=1)
    if isinstance(v, datetime.date):
        return v.isoformat()
    return v


class World:
    def __init__(self, request):
        self.dir = request["dir"]
        self.columns = [(c["name"], c["type"]) for c in request["schema"]]
        self.schema = pa.schema([pa.field(n, arrow_type(t)) for n, t in self.columns])
        self.partition_columns = request.get("partition_columns", [])
        self.configuration = request.get("configuration", {})
        # Stats text of the initial files a foreign writer writes, by index (docs/engines.md,
        # "Cross-writer worlds"), and the paths its files got.
        self.foreign_files = request.get("foreign_files", {})
        self.foreign_paths = []

    def table(self, rows):
        data = {n: [value_in(r.get(n), t) for r in rows] for n, t in self.columns}
        return pa.table(data, schema=self.schema)

    def write_initial(self, files, without_stats=()):
        """One append per file; a world without files gets an empty table (version 0)."""
        if self.foreign_files:
            return self.write_initial_with_foreign(files, without_stats)
        if not files:
            DeltaTable.create(self.dir, schema=self.schema, partition_by=self.partition_columns or None,
                              configuration=self.configuration)
        for i, rows in enumerate(files):
            write_deltalake(self.dir, self.table(rows), mode="append",
                            partition_by=self.partition_columns or None,
                            configuration=self.configuration if i == 0 else None,
                            writer_properties=NO_STATS if i in without_stats else None)
        return DeltaTable(self.dir).version()

    def write_initial_with_foreign(self, files, without_stats):
        """The table made empty first, then one commit per file: delta-rs's append or a foreign add."""
        DeltaTable.create(self.dir, schema=self.schema, configuration=self.configuration)
        for i, rows in enumerate(files):
            if str(i) in self.foreign_files:
                self.foreign_paths.append(commit_foreign_file(DeltaTable(self.dir), self.dir, self.table(rows),
                                                              self.foreign_files[str(i)], None))
            else:
                write_deltalake(self.dir, self.table(rows), mode="append",
                                writer_properties=NO_STATS if i in without_stats else None)
        return DeltaTable(self.dir).version()

    def run(self, handle, op, delta_version_of):
        """Runs one operation on the handle; delta_version_of maps a world version to delta-rs's."""
        kind = op["kind"]
        writer = None if op.get("stats", True) else NO_STATS
        if kind == "append":
            write_deltalake(handle, self.table(op["rows"]), mode="append", writer_properties=writer,
                            commit_properties=ONE_CHECK)
        elif kind == "overwrite":
            write_deltalake(handle, self.table(op["rows"]), mode="overwrite", predicate=op["predicate"],
                            writer_properties=writer, commit_properties=ONE_CHECK)
        elif kind == "delete":
            handle.delete(op.get("predicate"), writer_properties=writer, commit_properties=ONE_CHECK)
        elif kind == "update":
            handle.update(updates=op["set"], predicate=op.get("predicate"), writer_properties=writer,
                          commit_properties=ONE_CHECK)
        elif kind == "restore":
            target = delta_version_of(op["version"])
            if target == handle.version():
                raise Unsupported("RESTORE to the snapshot's own version (delta-rs refuses it)")
            handle.restore(target, commit_properties=ONE_CHECK)
        elif kind == "merge":
            merger = handle.merge(self.table(op["source"]), op["on"], source_alias="s", target_alias="t",
                                  writer_properties=writer, commit_properties=ONE_CHECK)
            for clause in op.get("matched", []):
                if clause["action"] == "update":
                    merger = merger.when_matched_update(clause["set"], clause.get("predicate"))
                elif clause["action"] == "delete":
                    merger = merger.when_matched_delete(clause.get("predicate"))
                else:
                    raise Unsupported("MERGE matched action " + clause["action"])
            for clause in op.get("not_matched", []):
                merger = merger.when_not_matched_insert(clause["set"], clause.get("predicate"))
            merger.execute()
        elif kind == "compact":
            handle.optimize.compact(writer_properties=writer, commit_properties=ONE_CHECK)
        elif kind == "foreign_append":
            self.foreign_paths.append(commit_foreign_file(handle, self.dir, self.table(op["rows"]), op["stats"], ONE_CHECK))
        else:
            raise Unsupported("operation " + kind)

    def relative(self, uri):
        prefix = os.path.abspath(self.dir).rstrip("/") + "/"
        path = uri[len("file://"):] if uri.startswith("file://") else uri
        return path[len(prefix):] if path.startswith(prefix) else path

    def live_files(self, versions):
        """delta-rs's own listing of the live files at each version, one handle moved along."""
        handle = DeltaTable(self.dir, version=versions[0])
        listing = []
        for v in versions:
            handle.load_as_version(v)
            listing.append({"version": v, "files": sorted(self.relative(u) for u in handle.file_uris())})
        return listing

    def rows_of(self, path):
        table = pq.read_table(os.path.join(self.dir, path))
        return [{k: value_out(v) for k, v in row.items()} for row in table.to_pylist()]


def execute(request):
    started = time.perf_counter()
    world = World(request)
    base = world.write_initial(request["files"], set(request.get("files_without_stats", [])))
    versions_by_world_version = [base]  # world version k (k commits after the initial table) -> delta version
    setup = time.perf_counter()
    attempts = []
    for attempt in request["attempts"]:
        txn = request["transactions"][attempt["transaction"]]
        read_version = versions_by_world_version[attempt["start"]]
        handle = DeltaTable(world.dir, version=read_version)
        out = {"transaction": attempt["transaction"], "read_version": read_version}
        try:
            world.run(handle, txn["operation"], lambda v: versions_by_world_version[v])
            latest = DeltaTable(world.dir).version()
            committed = latest > versions_by_world_version[-1]
            out.update(outcome="committed", version=latest if committed else None)
            versions_by_world_version.append(latest)
        except Unsupported as e:
            out.update(outcome="unsupported", reason=str(e))
        except Exception as e:  # the engine's own exception: class and message, judged by the gate
            out.update(outcome="aborted" if type(e).__name__ == "CommitFailedError" else "error",
                       exception=type(e).__name__, message=str(e))
        attempts.append(out)
    ran = time.perf_counter()
    final = DeltaTable(world.dir).version()
    versions = world.live_files(list(range(base, final + 1)))
    every_path = sorted({p for v in versions for p in v["files"]})
    files = {p: {"rows": world.rows_of(p), "deleted": []} for p in every_path}
    finished = time.perf_counter()
    return {"engine": ENGINE, "dir": world.dir, "base_version": base, "attempts": attempts,
            "versions": versions, "files": files, "foreign": world.foreign_paths,
            "timings": {"setup": setup - started, "attempts": ran - setup, "read": finished - ran}}


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            try:
                response = scan(request["scan"], arrow_type, value_in, value_out) if "scan" in request else execute(request)
            except Unsupported as e:
                response = {"engine": ENGINE, "unsupported": str(e)}
            response["trial"] = request.get("trial")
        except Exception as e:  # a request it could not run at all: the gate reports it with the world
            response = {"engine": ENGINE, "driver_error": type(e).__name__ + ": " + str(e),
                        "trace": traceback.format_exc()}
        sys.stdout.write(json.dumps(response, allow_nan=False) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    if sys.argv[1:] == ["--version"]:
        print(ENGINE)
    else:
        main()
