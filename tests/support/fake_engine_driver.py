"""A faulty engine driver for the engine gate's tests: the real delta-rs driver with one fault.

  no-conflict-check  each attempt commits what its operation gives on its own snapshot without
                     delta-rs seeing the commits written since (as an engine with no conflict
                     checker would): the gate must report a missed conflict
  wrong-stat         the first file's maxValues.id is one below its largest id
  wrong-stat-of-two  the same, only when that file holds two rows or more (a world that loses
                     rows loses the finding once its first file holds one: the shrinking test)
  unchanged-update   every UPDATE sets each column to itself (as an engine whose UPDATE loses its
                     SET would): the gate must report a wrong result
  engine-error       the first attempt is reported as failed with an engine error
  driver-exception   the driver answers every world with a driver_error (its own exception)
  extra-file         the driver lists a live file the log does not have
  scan-skip          at scan time the pyarrow fragments keep no file: a dropped file with a
                     matching row must be reported as an unsound skip
  scan-wrong-rows    at scan time each query that returns rows loses its last one
  garbage | hang | die   answers with no JSON, never answers, exits
"""
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "engines", "delta_rs"))
import driver  # noqa: E402
from deltalake import DeltaTable  # noqa: E402

RealWorld = driver.World


def commit_file(directory, version):
    return os.path.join(directory, "_delta_log", "%020d.json" % version)


class UncheckedWorld(RealWorld):
    """Runs each operation on a private copy of the table cut back to the attempt's snapshot, then
    appends the commit that copy got to the real table as its next version."""

    def run(self, handle, op, delta_version_of):
        read = handle.version()
        with tempfile.TemporaryDirectory() as copy:
            table = os.path.join(copy, "t")
            shutil.copytree(self.dir, table)
            for name in os.listdir(os.path.join(table, "_delta_log")):
                if name.endswith(".json") and int(name.split(".")[0]) > read:
                    os.remove(os.path.join(table, "_delta_log", name))
            inner = RealWorld.__new__(RealWorld)
            inner.__dict__.update(self.__dict__, dir=table)
            RealWorld.run(inner, DeltaTable(table), op, delta_version_of)
            if not os.path.exists(commit_file(table, read + 1)):
                return
            for root, _, files in os.walk(table):
                for name in files:
                    relative = os.path.relpath(os.path.join(root, name), table)
                    if not relative.startswith("_delta_log") and not os.path.exists(os.path.join(self.dir, relative)):
                        os.makedirs(os.path.dirname(os.path.join(self.dir, relative)), exist_ok=True)
                        shutil.copy(os.path.join(root, name), os.path.join(self.dir, relative))
            shutil.copy(commit_file(table, read + 1), commit_file(self.dir, DeltaTable(self.dir).version() + 1))


class UnchangedUpdateWorld(RealWorld):
    def run(self, handle, op, delta_version_of):
        if op["kind"] == "update":
            op = dict(op, set={column: column for column in op["set"]})
        RealWorld.run(self, handle, op, delta_version_of)


def lower_first_max_id(directory, min_rows=1):
    path = commit_file(directory, 0)
    lines = open(path).read().splitlines()
    for i, line in enumerate(lines):
        action = json.loads(line)
        if "add" in action and action["add"].get("stats"):
            stats = json.loads(action["add"]["stats"])
            if "id" not in stats["maxValues"]:
                continue  # written without column stats
            if stats["numRecords"] < min_rows:
                break
            stats["maxValues"]["id"] -= 1
            action["add"]["stats"] = json.dumps(stats)
            lines[i] = json.dumps(action)
            break
    open(path, "w").write("\n".join(lines) + "\n")


def scan_answer(mode, request):
    response = driver.scan(request, driver.arrow_type, driver.value_in, driver.value_out)
    for answer in response["scans"]:
        if mode == "scan-skip" and "kept" in answer["fragments"]:
            answer["fragments"]["kept"] = []
        if mode == "scan-wrong-rows" and answer["query"].get("rows"):
            answer["query"]["rows"].pop()
    return response


def main(mode):
    if mode == "no-conflict-check":
        driver.World = UncheckedWorld
    if mode == "unchanged-update":
        driver.World = UnchangedUpdateWorld
    for line in sys.stdin:
        request = json.loads(line)
        if mode == "garbage":
            print("Traceback (most recent call last): not a JSON line", flush=True)
            continue
        if mode == "hang":
            time.sleep(3600)
        if mode == "die":
            sys.exit(3)
        if mode == "driver-exception":
            print(json.dumps({"engine": driver.ENGINE, "driver_error": "KeyError: 'injected'"}), flush=True)
            continue
        if "scan" in request:
            print(json.dumps(scan_answer(mode, request["scan"])), flush=True)
            continue
        response = driver.execute(request)
        if mode == "wrong-stat":
            lower_first_max_id(request["dir"])
        if mode == "wrong-stat-of-two":
            lower_first_max_id(request["dir"], min_rows=2)
        if mode == "engine-error" and response["attempts"]:
            response["attempts"][0].update(outcome="error", exception="DeltaError", message="injected failure")
        if mode == "extra-file":
            response["versions"][0]["files"].append("part-00000-injected.parquet")
        response["trial"] = request.get("trial")
        print(json.dumps(response), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
