"""The Spark job in Spark's local mode, over the WARC and WET files of
`corpus/warc` (and a gzip-compressed copy, as crawls ship them): both ways
(`--via module`, `--via pipe`) write the rows `iriscan --json --format
warc FILE` gives, row for row, and the host-link counts those rows make.

Needs pyspark and a Java runtime, the `iriscan` module (`pip install
./python`) and the binary (`$IRISCAN_BIN`, else the workspace's release or
debug build).
"""

import gzip
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "spark"))

import links_job  # noqa: E402

pyspark = pytest.importorskip("pyspark")


def cli():
    given = os.environ.get("IRISCAN_BIN")
    if given:
        return str(Path(given).resolve())
    for build in ("release", "debug"):
        binary = ROOT / "target" / build / "iriscan"
        if binary.exists():
            return str(binary)
    pytest.fail("no iriscan binary: build it (cargo build -p iriscan-cli) or set IRISCAN_BIN")


def cli_reads_warc():
    help_text = subprocess.run([cli(), "--help"], capture_output=True, text=True).stdout
    return "--format" in help_text and "warc" in help_text


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    # The executors' Python is this one, which has the module.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("iriscan-links-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    # The job's functions, for the executors (spark-submit ships the
    # script it runs; here the job is imported).
    session.sparkContext.addPyFile(str(ROOT / "spark" / "links_job.py"))
    yield session
    session.stop()


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """A directory with the corpus's WARC and WET files and a compressed
    copy of the WARC file."""
    folder = tmp_path_factory.mktemp("crawl")
    for p in sorted((ROOT / "corpus" / "warc").iterdir()):
        if p.suffix in (".warc", ".wet"):
            shutil.copy(p, folder / p.name)
    warc = (folder / "cc-main-2014-35-sample.warc").read_bytes()
    (folder / "cc-main-2014-35-sample.warc.gz").write_bytes(gzip.compress(warc))
    return folder


def local(path):
    """The local file of a Spark path (`file:/tmp/x` → `/tmp/x`)."""
    return urlsplit(path).path


def expected_rows(paths):
    """The rows `iriscan --json --format warc` gives on each file."""
    rows = []
    for path in paths:
        out = subprocess.run(
            [cli(), "--json", "--format", "warc", local(path)], capture_output=True, check=False
        )
        assert out.returncode in (0, 1), out.stderr.decode()
        for n, line in enumerate(out.stdout.decode().splitlines()):
            r = json.loads(line)
            host = urlsplit(r["uri"]).hostname
            page = urlsplit(r["target_uri"]).hostname if r.get("target_uri") else None
            rows.append((path, n, r.get("record"), r.get("record_index"), r.get("target_uri"),
                         r.get("source"), r["iri"], r["uri"], host or None, r["kind"],
                         page or None))
    return rows


def written_rows(spark, output):
    links = spark.read.parquet(str(output / "links"))
    assert links.columns == [name for name, _ in links_job.LINK_COLUMNS]
    return sorted((tuple(r) for r in links.collect()), key=lambda r: (r[0], r[1]))


def run_job(spark, inputs, output, via):
    binary = ["--iriscan", cli()] if via == "pipe" else []
    args = links_job.parse_args([str(inputs), "--output", str(output), "--via", via, *binary])
    return links_job.run(spark, args)


def test_the_files_are_found(spark, inputs):
    paths = links_job.expand(spark, [str(inputs)])
    assert [Path(local(p)).name for p in paths] == [
        "cc-main-2014-35-sample.warc",
        "cc-main-2014-35-sample.warc.gz",
        "cc-main-2014-35-sample.wet",
    ]
    glob = links_job.expand(spark, [str(inputs / "*.wet")])
    assert [Path(local(p)).name for p in glob] == ["cc-main-2014-35-sample.wet"]


@pytest.mark.parametrize("via", ["module", "pipe"])
def test_rows_equal_the_command_line(spark, inputs, tmp_path, via):
    if not cli_reads_warc():
        pytest.skip("this iriscan has no --format warc yet")
    count = run_job(spark, inputs, tmp_path, via)
    got = written_rows(spark, tmp_path)
    want = expected_rows(links_job.expand(spark, [str(inputs)]))
    assert len(want) > 1000
    assert count == len(want)
    assert got == want
    # The host links are the rows' (page host, link host) pairs, counted.
    pairs = Counter(
        (links_job.reverse_host(urlsplit(r[4]).hostname), links_job.reverse_host(r[8]))
        for r in want
        if r[8] is not None
    )
    hosts = spark.read.parquet(str(tmp_path / "host_links")).collect()
    assert {(h.s, h.t): h.links for h in hosts} == dict(pairs)
    assert ("de.0pointer", "de.0pointer") in pairs
    pages = {}
    for r in want:
        if r[8] is not None:
            key = (links_job.reverse_host(r[10]), links_job.reverse_host(r[8]))
            pages.setdefault(key, set()).add((r[0], r[3]))
    assert {(h.s, h.t): h.pages for h in hosts} == {k: len(v) for k, v in pages.items()}


def test_module_rows_equal_the_module(spark, inputs, tmp_path):
    # Without the command line: the job's rows are the module's records.
    import iriscan

    run_job(spark, inputs, tmp_path, "module")
    got = written_rows(spark, tmp_path)
    want = []
    for path in links_job.expand(spark, [str(inputs)]):
        data = Path(local(path)).read_bytes()
        for n, r in enumerate(iriscan.scan_bytes(data, format="warc", path=path)):
            want.append(links_job.link_row(path, n, r))
    assert got == want
    assert {r[9] for r in got} >= {"iri"}


def test_host_names():
    assert links_job.host_of("http://User@WWW.Example.ORG:8080/x") == "www.example.org"
    assert links_job.host_of("http://[2001:db8::1]/") == "2001:db8::1"
    assert links_job.host_of("mailto:a@example.org") is None
    assert links_job.reverse_host("www.example.org") == "org.example.www"
    assert links_job.reverse_host("192.0.2.1") == "192.0.2.1"
    assert links_job.reverse_host(None) is None


def test_a_list_of_paths_gives_the_same_rows(spark, inputs, tmp_path):
    # --input-list: one path a line, each with --prefix before it, taken
    # as it is (Common Crawl's warc.paths with s3a://commoncrawl/).
    listing = tmp_path / "warc.paths"
    listing.write_text("cc-main-2014-35-sample.wet\ncc-main-2014-35-sample.warc.gz\n")
    args = links_job.parse_args(
        ["--input-list", str(listing), "--prefix", f"file://{inputs}/",
         "--output", str(tmp_path / "out")]
    )
    links_job.run(spark, args)
    got = written_rows(spark, tmp_path / "out")
    assert {Path(local(r[0])).name for r in got} == {
        "cc-main-2014-35-sample.wet",
        "cc-main-2014-35-sample.warc.gz",
    }
    assert got == expected_rows(sorted({r[0] for r in got}))
