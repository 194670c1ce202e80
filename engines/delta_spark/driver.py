"""skipsound's Delta Spark driver: one request a line on stdin, one answer a line on stdout.

It translates and executes; it judges nothing (docs/engines.md describes the protocol). One local
SparkSession with Delta's extensions lives as long as the process, so the JVM starts once per gate
run; Delta's jars come from Maven Central on the first start and stay in an Ivy cache beside the
virtual environment (the build folder's spark-ivy).

Two requests:
- a world (the engine gate's protocol): the initial files are Delta Spark appends, one file each;
  the attempts run one after the other through Delta's SQL commands, each on the latest version.
  A world with an attempt whose snapshot is older than the latest version is reported
  unsupported before anything runs: Delta's commands always read the latest snapshot.
- {"kind": "write"} (writer conformance): a table created with the given Spark schema, partition
  columns and properties, then one append per file; the answer lists each data file with the rows
  Delta reads back from it (logical names, partition values included) and, per predicate of
  "scans", the files Delta's data skipping keeps.
"""
import datetime
import decimal
import json
import math
import os
import sys
import time
import traceback
import urllib.parse

# The JVM and Ivy write to fd 1 when they start; the protocol keeps its own copy of stdout and
# points fd 1 at stderr before anything else runs.
PROTOCOL_OUT = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)
# PySpark turns timestamps into naive local datetimes and back: the process's zone is UTC.
os.environ["TZ"] = "UTC"
time.tzset()

import pyspark  # noqa: E402
import delta  # noqa: E402
from importlib.metadata import version as package_version  # noqa: E402

ENGINE = "pyspark %s, delta-spark %s" % (pyspark.__version__, package_version("delta-spark"))
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
NTZ_EPOCH = datetime.datetime(1970, 1, 1)
# Where Ivy keeps Delta's jars: beside the virtual environment (build/<preset>/spark-ivy).
IVY_DIR = os.environ.get("SKIPSOUND_SPARK_IVY", os.path.join(os.path.dirname(sys.prefix), "spark-ivy"))


STALE = "an attempt at a snapshot older than the latest version (Delta's commands read the latest)"


class Unsupported(Exception):
    """A form of the world Delta Spark's public API cannot express."""


_spark = None


def spark():
    """The process's one SparkSession, started on first use."""
    global _spark
    if _spark is None:
        from delta import configure_spark_with_delta_pip
        from pyspark.sql import SparkSession
        builder = (SparkSession.builder.master("local[2]").appName("skipsound-delta-spark")
                   .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
                   .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
                   .config("spark.jars.ivy", IVY_DIR)
                   .config("spark.sql.shuffle.partitions", "1")
                   .config("spark.default.parallelism", "1")
                   .config("spark.sql.session.timeZone", "UTC")
                   .config("spark.ui.enabled", "false")
                   .config("spark.driver.memory", "1g")
                   .config("spark.sql.sources.parallelPartitionDiscovery.parallelism", "1")
                   .config("spark.databricks.delta.snapshotPartitions", "1")
                   .config("spark.databricks.delta.properties.defaults.checkpointInterval", "1000000")
                   .config("spark.driver.extraJavaOptions", "-Duser.timezone=UTC")
                   .config("spark.sql.adaptive.enabled", "false")
                   .config("spark.databricks.delta.writeChecksumFile.enabled", "false"))
        # Dates and timestamps before 1582 / 1900 as they are (Spark 3's proleptic calendar), not refused.
        for mode in ("datetimeRebaseModeInWrite", "int96RebaseModeInWrite", "datetimeRebaseModeInRead",
                     "int96RebaseModeInRead"):
            builder = builder.config("spark.sql.parquet." + mode, "CORRECTED")
        _spark = configure_spark_with_delta_pip(builder).getOrCreate()
        _spark.sparkContext.setLogLevel("ERROR")
    return _spark


# --- values -------------------------------------------------------------------------------

def value_in(v, t):
    """A protocol value as the Python value PySpark takes for Spark type t."""
    from pyspark.sql import types as T
    if v is None:
        return None
    if isinstance(t, T.StructType):
        return tuple(value_in(v.get(f.name), f.dataType) for f in t.fields)
    if isinstance(t, (T.DoubleType, T.FloatType)):
        return float(v)  # "NaN", "Infinity", "-Infinity" or a number
    if isinstance(t, T.DecimalType):
        return decimal.Decimal(v)
    if isinstance(t, T.DateType):
        return datetime.date.fromisoformat(v)
    if isinstance(t, T.TimestampNTZType):
        return NTZ_EPOCH + datetime.timedelta(microseconds=v)
    if isinstance(t, T.TimestampType):
        return EPOCH + datetime.timedelta(microseconds=v)
    return v


def value_out(v):
    """A value read back from Spark in the protocol's encoding (structs as objects; timestamps
    arrive as microseconds, see readable)."""
    if v is None:
        return None
    if hasattr(v, "asDict"):
        return {k: value_out(x) for k, x in v.asDict().items()}
    if isinstance(v, float) and not math.isfinite(v):
        return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
    if isinstance(v, decimal.Decimal):
        return format(v, "f")
    if isinstance(v, datetime.date):
        return v.isoformat()
    return v


def readable(column, t):
    """The column with every timestamp leaf as microseconds since the epoch: PySpark's own
    conversion goes through the C library's local time, which fails before year 2."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as T
    if isinstance(t, T.StructType):
        return F.struct(*[readable(column.getField(f.name), f.dataType).alias(f.name) for f in t.fields])
    if isinstance(t, T.TimestampNTZType):
        return F.unix_micros(column.cast("timestamp"))  # the session zone is UTC: the same wall clock
    if isinstance(t, T.TimestampType):
        return F.unix_micros(column)
    return column


def readable_columns(schema):
    from pyspark.sql import functions as F
    return [readable(F.col(quoted(f.name)), f.dataType).alias(f.name) for f in schema.fields]


def spark_schema(request):
    """The request's schema: Spark's StructType JSON, or the engine gate's [{"name", "type"}]."""
    from pyspark.sql import types as T
    schema = request["schema"]
    if isinstance(schema, dict):
        return T.StructType.fromJson(schema)
    spark()  # type names are parsed by the JVM's parser
    return T.StructType([T.StructField(c["name"], T._parse_datatype_string(c["type"]), True) for c in schema])


def frame(schema, rows):
    data = [tuple(value_in(r.get(f.name), f.dataType) for f in schema.fields) for r in rows]
    return spark().createDataFrame(data, schema).coalesce(1)


# --- the table ------------------------------------------------------------------------------

class Table:
    def __init__(self, request):
        self.dir = os.path.abspath(request["dir"])
        self.schema = spark_schema(request)
        self.partition_columns = request.get("partition_columns", [])
        self.configuration = request.get("configuration", {})

    def create(self):
        from delta.tables import DeltaTable
        builder = DeltaTable.create(spark()).location(self.dir).addColumns(self.schema)
        if self.partition_columns:
            builder = builder.partitionedBy(*self.partition_columns)
        for key, value in self.configuration.items():
            builder = builder.property(key, value)
        builder.execute()

    def append(self, rows):
        frame(self.schema, rows).write.format("delta").mode("append").save(self.dir)

    def version(self):
        from delta.tables import DeltaTable
        return DeltaTable.forPath(spark(), self.dir).history(1).collect()[0]["version"]

    def relative(self, uri):
        path = uri[len("file:"):] if uri.startswith("file:") else uri
        path = "/" + path.lstrip("/")
        prefix = self.dir.rstrip("/") + "/"
        return path[len(prefix):] if path.startswith(prefix) else path

    def live_files(self, version):
        """Delta Spark's own listing of the live files at a version."""
        df = spark().read.format("delta").option("versionAsOf", version).load(self.dir)
        return sorted({self.relative(u) for u in df.inputFiles()})

    def log_paths(self):
        """The live files' paths as the log writes them (URI-encoded: a partition value's escaped
        "%7F" is "%257F" there), from Delta's latest snapshot."""
        from pyspark.sql import DataFrame
        snapshot = spark()._jvm.org.apache.spark.sql.delta.DeltaLog.forTableWithSnapshot(
            spark()._jsparkSession, self.dir)._2()
        return sorted(r["path"] for r in DataFrame(snapshot.allFiles().toDF(), spark()).select("path").collect())

    def rows_by_file(self, version=None):
        """Each live file's rows as Delta reads them (logical names, partition values included)."""
        from pyspark.sql import functions as F
        reader = spark().read.format("delta")
        if version is not None:
            reader = reader.option("versionAsOf", version)
        df = reader.load(self.dir)
        df = df.select(*readable_columns(self.schema), F.col("_metadata.file_path").alias("__file"))
        by_file = {}
        for row in df.collect():
            d = row.asDict()
            path = self.relative(d.pop("__file"))
            by_file.setdefault(path, []).append({k: value_out(v) for k, v in d.items()})
        return by_file


# --- writer conformance ---------------------------------------------------------------------

def write_files(request):
    """The table (version 0), then every file in one append (version 1): a union of one-partition
    frames, so each Spark task writes one file (one a partition value) and Delta's writer collects
    its stats as for a file written alone, in one commit instead of one a file."""
    started = time.perf_counter()
    table = Table(request)
    table.create()
    frames = [frame(table.schema, rows) for rows in request["files"]]
    union = frames[0]
    for f in frames[1:]:
        union = union.union(f)
    union.write.format("delta").mode("append").save(table.dir)
    written = time.perf_counter()
    rows = table.rows_by_file()
    files = {p: {"rows": rows.get(p, rows.get(urllib.parse.unquote(p), []))} for p in table.log_paths()}
    read = time.perf_counter()
    scans = [files_for_scan(table, predicate) for predicate in request.get("scans", [])]
    return {"engine": ENGINE, "dir": table.dir, "version": 1, "files": files, "scans": scans,
            "timings": {"write": written - started, "read": read - written, "scans": time.perf_counter() - read}}


def deterministic_conjuncts(condition):
    """The condition's AND-ed parts Spark's planner may hand a scan: the deterministic ones.
    filesForScan given rand() < 0.5 would take it for a partition filter (it names no column) and
    drop files at random; a query never passes it."""
    if condition.getClass().getSimpleName() == "And":
        return deterministic_conjuncts(condition.left()) + deterministic_conjuncts(condition.right())
    return [condition] if condition.deterministic() else []


def files_for_scan(table, predicate):
    """The files Delta's data skipping keeps for a predicate: the snapshot's filesForScan (Delta's
    DataSkippingReader, partition filters and stats) given the deterministic conjuncts of the
    predicate as Spark analyzes it over the table, through the JVM gateway. Paths as the log
    writes them."""
    try:
        jvm = spark()._jvm
        analyzed = spark().read.format("delta").load(table.dir).where(predicate)._jdf.queryExecution().analyzed()
        filters = jvm.java.util.ArrayList()
        for conjunct in deterministic_conjuncts(analyzed.condition()):
            filters.add(conjunct)
        seq = jvm.scala.collection.JavaConverters.asScalaBuffer(filters).toSeq()
        snapshot = jvm.org.apache.spark.sql.delta.DeltaLog.forTableWithSnapshot(spark()._jsparkSession, table.dir)._2()
        files = snapshot.filesForScan(seq, False).files()
        return {"kept": sorted(files.apply(i).path() for i in range(files.size()))}
    except Exception as e:  # the predicate Spark or Delta refuses: counted by the gate per form
        return {"error": java_exception_name(e) + ": " + str(e)[:500]}


# --- worlds (the engine gate) ---------------------------------------------------------------

def quoted(name):
    return "`" + name.replace("`", "``") + "`"


def assignments(set_clause):
    return ", ".join("%s = %s" % (column, expression) for column, expression in set_clause.items())


def merge_sql(table, op):
    source = frame(table.schema, op["source"])
    view = "skipsound_merge_source"
    source.createOrReplaceTempView(view)
    sql = "MERGE INTO delta.%s AS t USING %s AS s ON %s" % (quoted(table.dir), view, op["on"])
    for clause in op.get("matched", []):
        condition = " AND " + clause["predicate"] if clause.get("predicate") else ""
        if clause["action"] == "update":
            sql += " WHEN MATCHED%s THEN UPDATE SET %s" % (condition, assignments(clause["set"]))
        elif clause["action"] == "delete":
            sql += " WHEN MATCHED%s THEN DELETE" % condition
        else:
            raise Unsupported("MERGE matched action " + clause["action"])
    for clause in op.get("not_matched", []):
        condition = " AND " + clause["predicate"] if clause.get("predicate") else ""
        columns = list(clause["set"].keys())
        sql += " WHEN NOT MATCHED%s THEN INSERT (%s) VALUES (%s)" % (
            condition, ", ".join(columns), ", ".join(clause["set"][c] for c in columns))
    return sql


def run_operation(table, op):
    kind = op["kind"]
    target = "delta." + quoted(table.dir)
    where = lambda: " WHERE " + op["predicate"] if op.get("predicate") else ""  # noqa: E731
    if kind == "append":
        table.append(op["rows"])
    elif kind == "overwrite":
        (frame(table.schema, op["rows"]).write.format("delta").mode("overwrite")
         .option("replaceWhere", op["predicate"]).save(table.dir))
    elif kind == "delete":
        spark().sql("DELETE FROM %s%s" % (target, where()))
    elif kind == "update":
        spark().sql("UPDATE %s SET %s%s" % (target, assignments(op["set"]), where()))
    elif kind == "merge":
        spark().sql(merge_sql(table, op))
    elif kind == "compact":
        spark().sql("OPTIMIZE %s" % target)
    else:
        raise Unsupported("operation " + kind)


def deleted_positions(table, version):
    """Each file's deletion-vector positions at a version: the physical rows Delta no longer reads."""
    from pyspark.sql import functions as F
    df = (spark().read.format("delta").option("versionAsOf", version).load(table.dir)
          .select(F.col("_metadata.file_path").alias("f"), F.col("_metadata.row_index").alias("i")))
    live = {}
    for r in df.collect():
        live.setdefault(table.relative(r["f"]), set()).add(r["i"])
    return live


def physical_rows(table, path):
    """A data file's rows in physical order, read as Parquet (partition values added from the path)."""
    from pyspark.sql import functions as F
    df = spark().read.schema(table.schema).parquet(os.path.join(table.dir, path))
    df = df.select(*readable_columns(table.schema), F.col("_metadata.row_index").alias("__i")).orderBy("__i")
    return [{k: value_out(v) for k, v in r.asDict().items() if k != "__i"} for r in df.collect()]


def execute_world(request):
    started = time.perf_counter()
    table = Table(request)
    if table.configuration.get("delta.columnMapping.mode", "none") != "none":
        raise Unsupported("column mapping in a world (files are read back by physical names)")
    if any(a["start"] != i for i, a in enumerate(request["attempts"])):
        raise Unsupported(STALE)
    table.create()
    for rows in request["files"]:
        table.append(rows)
    base = table.version()
    versions_by_world_version = [base]
    setup = time.perf_counter()
    attempts = []
    for attempt in request["attempts"]:
        txn = request["transactions"][attempt["transaction"]]
        read_version = versions_by_world_version[attempt["start"]]
        out = {"transaction": attempt["transaction"], "read_version": read_version}
        try:
            run_operation(table, txn["operation"])
            latest = table.version()
            committed = latest > versions_by_world_version[-1]
            out.update(outcome="committed", version=latest if committed else None)
            versions_by_world_version.append(latest)
        except Unsupported as e:
            out.update(outcome="unsupported", reason=str(e))
        except Exception as e:  # the engine's own exception: class and message, judged by the gate
            name = java_exception_name(e)
            out.update(outcome="aborted" if "Concurrent" in name or "Conflict" in name else "error",
                       exception=name, message=str(e)[:2000])
        attempts.append(out)
    ran = time.perf_counter()
    final = table.version()
    versions = [{"version": v, "files": table.live_files(v)} for v in range(base, final + 1)]
    every_path = sorted({p for v in versions for p in v["files"]})
    live_at_end = deleted_positions(table, final)
    files = {}
    for p in every_path:
        rows = physical_rows(table, p)
        kept = live_at_end.get(p)
        deleted = [] if kept is None else [i for i in range(len(rows)) if i not in kept]
        files[p] = {"rows": rows, "deleted": deleted}
    finished = time.perf_counter()
    return {"engine": ENGINE, "dir": table.dir, "base_version": base, "attempts": attempts,
            "versions": versions, "files": files,
            "timings": {"setup": setup - started, "attempts": ran - setup, "read": finished - ran}}


def java_exception_name(e):
    """The JVM exception's class for errors raised through Py4J or PySpark, else the Python class."""
    java = getattr(e, "java_exception", None)
    if java is not None:
        return java.getClass().getName()
    desc = getattr(e, "desc", None)
    if isinstance(desc, str) and ":" in desc:
        return desc.split(":", 1)[0]
    return type(e).__name__


def execute(request):
    if request.get("kind") == "write":
        return write_files(request)
    return execute_world(request)


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            try:
                response = execute(request)
            except Unsupported as e:
                response = {"engine": ENGINE, "unsupported": str(e)}
            response["trial"] = request.get("trial")
        except Exception as e:  # a request it could not run at all: the gate reports it with the request
            response = {"engine": ENGINE, "driver_error": type(e).__name__ + ": " + str(e)[:4000],
                        "trace": traceback.format_exc()[-4000:]}
        PROTOCOL_OUT.write(json.dumps(response, allow_nan=False) + "\n")
        PROTOCOL_OUT.flush()


if __name__ == "__main__":
    if sys.argv[1:] == ["--version"]:
        PROTOCOL_OUT.write(ENGINE + "\n")
        PROTOCOL_OUT.flush()
    elif sys.argv[1:] == ["--start"]:  # starts the JVM once (fetching Delta's jars), then exits
        spark().range(1).collect()
        PROTOCOL_OUT.write(ENGINE + " started\n")
        PROTOCOL_OUT.flush()
    else:
        main()
