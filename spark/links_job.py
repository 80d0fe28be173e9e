"""The links of a crawl, on Apache Spark: WARC/WET files in, one row per
link and host-to-host link counts out, as Parquet.

    spark-submit spark/links_job.py [--via module|pipe] --output DIR PATH...

PATH is anything Spark reads (a local path, `hdfs://…`, `s3a://…`; a
directory or a glob is expanded), or give `--input-list FILE`: one path a
line, taken as it is (Common Crawl's `warc.paths`, with `--prefix
s3a://commoncrawl/`). Each file is read whole (`binaryFiles`) and scanned
as a WARC or WET file, plain or gzip-compressed, by one of two ways:

- `--via module` (the default): `mapPartitions` calls the `iriscan` Python
  module in the executor's Python (`pip install ./python`, or the wheel
  shipped with `--py-files`/an environment archive);
- `--via pipe`: `rdd.pipe` runs the `iriscan` binary (`--iriscan PATH`,
  shipped with `--files`) as a streaming mapper: each file is one
  partition, sent base64-framed on the pipe's standard input, decoded by
  `base64 -d` and read by `iriscan --json --format warc -`; its JSON Lines
  come back on standard output.

Both give the same rows, which are the records `iriscan --json --format
warc FILE` prints, file by file, in order (docs/rules.md §9).

Output:

- `DIR/links`: `path`, `hit` (the link's place among the file's links),
  `record` and `record_index` (the record's `WARC-Record-ID` and its
  index in the file), `target_uri` (the page),
  `source` (its media type), `iri`, `uri`, `host` (of `uri`, lower case;
  null for `mailto:` and other links without one), `kind`, `page_host`
  (the host of `target_uri`);
- `DIR/host_links`: `s`, `t` (the page's host and the link's host, each
  written backwards, `org.example.www`, as Common Crawl's host graphs
  and cc-pyspark's host-link job write them), `links` (how many links),
  `pages` (from how many records).
"""

import argparse
import base64
import json
import shlex
import sys
from urllib.parse import urlsplit

# The columns of DIR/links, in order.
LINK_COLUMNS = [
    ("path", "string"),
    ("hit", "long"),
    ("record", "string"),
    ("record_index", "long"),
    ("target_uri", "string"),
    ("source", "string"),
    ("iri", "string"),
    ("uri", "string"),
    ("host", "string"),
    ("kind", "string"),
    ("page_host", "string"),
]


def host_of(uri):
    """The host of a URI, lower case, without brackets, userinfo or port;
    None when it has none (`mailto:`, `urn:`) or it cannot be read."""
    if not uri:
        return None
    try:
        host = urlsplit(uri).hostname
    except ValueError:
        return None
    return host or None


def reverse_host(host):
    """`www.example.org` → `org.example.www` (an IP address stays)."""
    if host is None or ":" in host or host.replace(".", "").isdigit():
        return host
    return ".".join(reversed(host.split(".")))


def link_row(path, hit, record):
    """The row of one link: `record` is a hit as `iriscan --json` prints it
    (or as the module returns it), `hit` its place in the file."""
    return (
        path,
        hit,
        record.get("record"),
        record.get("record_index"),
        record.get("target_uri"),
        record.get("source"),
        record["iri"],
        record["uri"],
        host_of(record["uri"]),
        record["kind"],
        host_of(record.get("target_uri")),
    )


def scan_with_module(files):
    """`(path, bytes)` pairs → link rows, by the Python module in process."""

    def scan(pairs):
        import iriscan

        for path, data in pairs:
            records = iriscan.scan_bytes(bytes(data), format="warc", path=path)
            for n, record in enumerate(records):
                yield link_row(path, n, record)

    return files.mapPartitions(scan)


def pipe_command(binary):
    """The command `rdd.pipe` runs: base64 from standard input, decoded into
    `iriscan --json --format warc`. It fails (and the task with it) when
    either fails; iriscan's status 1 (no link found) is no failure."""
    script = (
        'base64 -d | "$0" --json --format warc -; '
        "s=(${PIPESTATUS[@]}); "
        '[ "${s[0]}" = 0 ] && [ "${s[1]}" -le 1 ]'
    )
    return "bash -c " + shlex.quote(script) + " " + shlex.quote(binary)


def scan_with_pipe(sc, paths, binary):
    """Paths → link rows, by the iriscan binary under `rdd.pipe`. Each file
    is read as a partition of its own (a union of one `binaryFiles` per
    file), so that one iriscan process reads exactly one whole file."""
    parts = [sc.binaryFiles(p) for p in paths]
    owners = []
    for path, part in zip(paths, parts):
        count = part.getNumPartitions()
        if count > 1:
            raise RuntimeError(f"{path}: read as {count} partitions, not one")
        owners += [path] * count
    owners = sc.broadcast(owners)
    files = sc.union(parts) if len(parts) > 1 else parts[0]
    framed = files.map(lambda pair: base64.encodebytes(bytes(pair[1])).decode("ascii"))
    lines = framed.pipe(pipe_command(binary), checkCode=True)

    def rows(index, output):
        path = owners.value[index]
        for n, line in enumerate(output):
            yield link_row(path, n, json.loads(line))

    return lines.mapPartitionsWithIndex(rows)


def expand(spark, given):
    """Every file under the paths `given` (globs and directories expanded,
    names starting with `.` or `_` skipped, as Hadoop does), each once, as
    Spark names it (`file:/…`, `hdfs://…`)."""
    jvm = spark.sparkContext._jvm
    conf = spark.sparkContext._jsc.hadoopConfiguration()
    found = []
    for text in given:
        pattern = jvm.org.apache.hadoop.fs.Path(text)
        fs = pattern.getFileSystem(conf)
        statuses = fs.globStatus(pattern)
        if not statuses:
            raise FileNotFoundError(text)
        for status in statuses:
            if status.isDirectory():
                listing = fs.listFiles(status.getPath(), True)
                inside = []
                while listing.hasNext():
                    path = listing.next().getPath()
                    if not path.getName().startswith((".", "_")):
                        inside.append(path.toString())
                found += sorted(inside)
            else:
                found.append(status.getPath().toString())
    return list(dict.fromkeys(found))


def link_rows(spark, paths, via, binary="iriscan"):
    """The link rows of the files `paths`, as a DataFrame."""
    sc = spark.sparkContext
    if via == "module":
        rows = scan_with_module(sc.binaryFiles(",".join(paths)))
    elif via == "pipe":
        rows = scan_with_pipe(sc, paths, binary)
    else:
        raise ValueError(f"--via {via}: module or pipe")
    schema = ", ".join(f"{name} {kind}" for name, kind in LINK_COLUMNS)
    return spark.createDataFrame(rows, schema)


def host_links(links):
    """Host-to-host link counts from the link rows."""
    from pyspark.sql import functions as F

    def backwards(column):
        # reverse_host, in Spark SQL (no Python UDF).
        c = F.col(column)
        is_ip = c.contains(":") | c.rlike(r"^[0-9.]+$")
        return F.when(is_ip, c).otherwise(F.array_join(F.reverse(F.split(c, r"\.")), "."))

    return (
        links.where(F.col("host").isNotNull() & F.col("page_host").isNotNull())
        .groupBy(backwards("page_host").alias("s"), backwards("host").alias("t"))
        .agg(
            F.count(F.lit(1)).alias("links"),
            F.countDistinct("path", "record_index").alias("pages"),
        )
    )


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("paths", nargs="*", help="WARC/WET files, directories or globs")
    p.add_argument("--input-list", help="a file of paths, one a line (taken as they are)")
    p.add_argument("--prefix", default="", help="put before each path of --input-list")
    p.add_argument("--output", required=True, help="the output directory")
    p.add_argument("--via", choices=["module", "pipe"], default="module")
    p.add_argument("--iriscan", default="iriscan", help="the binary, for --via pipe")
    p.add_argument("--partitions", type=int, default=0,
                   help="write the links in this many files (default: as scanned)")
    return p.parse_args(argv)


def run(spark, args):
    """Runs the job; returns the number of link rows written."""
    paths = expand(spark, args.paths) if args.paths else []
    if args.input_list:
        with open(args.input_list, encoding="utf-8") as listing:
            paths += [args.prefix + line.strip() for line in listing if line.strip()]
    if not paths:
        raise SystemExit("no input: give paths or --input-list")
    links = link_rows(spark, paths, args.via, args.iriscan).cache()
    out = links.repartition(args.partitions) if args.partitions else links
    out.write.mode("overwrite").parquet(args.output.rstrip("/") + "/links")
    host_links(links).write.mode("overwrite").parquet(args.output.rstrip("/") + "/host_links")
    return links.count()


def main(argv=None):
    from pyspark.sql import SparkSession

    args = parse_args(sys.argv[1:] if argv is None else argv)
    spark = SparkSession.builder.appName("iriscan-links").getOrCreate()
    try:
        count = run(spark, args)
        print(f"{count} links written to {args.output}", file=sys.stderr)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
