"""The Python module against the command line: on every file of the
corpus, `iriscan.scan_bytes` gives the records `iriscan --json` prints,
key for key and in the same order (docs/rules.md §9).

The command line is `$IRISCAN_BIN`, else the workspace's release or debug
build (`cargo build -p iriscan-cli`).
"""

import json
import os
import subprocess
import warnings
import gzip
from pathlib import Path

import pytest

import iriscan

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus"


def cli():
    given = os.environ.get("IRISCAN_BIN")
    if given:
        return given
    for build in ("release", "debug"):
        binary = ROOT / "target" / build / "iriscan"
        if binary.exists():
            return str(binary)
    pytest.fail("no iriscan binary: build it (cargo build -p iriscan-cli) or set IRISCAN_BIN")


def cli_formats():
    """The --format values the command line knows (none before it had one)."""
    help_text = subprocess.run([cli(), "--help"], capture_output=True, text=True).stdout
    if "--format" not in help_text:
        return set()
    return {f for f in ("text", "mail", "html", "warc") if f in help_text}


def cli_records(relative, *args):
    """The records of `iriscan --json ARGS PATH`, run from the repository."""
    out = subprocess.run(
        [cli(), "--json", *args, relative], cwd=ROOT, capture_output=True, check=False
    )
    assert out.returncode in (0, 1), out.stderr.decode()
    return [json.loads(line) for line in out.stdout.decode().splitlines()]


def ordered(records):
    """Records as lists of (key, value): dict equality ignores the order."""
    return [list(r.items()) for r in records]


def text_files():
    files = [CORPUS / "example.txt"]
    files += sorted(
        p
        for p in (CORPUS / "charsets").iterdir()
        if p.suffix == ".txt" and not p.name.endswith(".utf8.txt")
    )
    return [str(p.relative_to(ROOT)) for p in files]


def archive_files():
    return sorted(
        str(p.relative_to(ROOT))
        for p in (CORPUS / "warc").iterdir()
        if p.suffix in (".warc", ".wet")
    )


def mail_files():
    return sorted(
        str(p.relative_to(ROOT))
        for p in (CORPUS / "mail").iterdir()
        if p.suffix in (".eml", ".mbox")
    )


def html_files():
    return sorted(
        str(p.relative_to(ROOT)) for p in (CORPUS / "html").iterdir() if p.suffix == ".html"
    )


@pytest.mark.parametrize("relative", text_files())
def test_text_equals_the_command_line(relative):
    data = (ROOT / relative).read_bytes()
    got = iriscan.scan_bytes(data, format="text", path=relative)
    want = cli_records(relative, *(["--format", "text"] if cli_formats() else []))
    assert ordered(got) == ordered(want)
    assert got, "the corpus file has links"


@pytest.mark.parametrize(
    "relative", text_files() + archive_files() + mail_files() + html_files()
)
def test_auto_chooses_as_the_command_line_does(relative):
    if not cli_formats():
        pytest.skip("this iriscan has no --format yet")
    data = (ROOT / relative).read_bytes()
    got = iriscan.scan_bytes(data, path=relative)
    assert ordered(got) == ordered(cli_records(relative))


def test_a_given_charset_is_the_command_lines_encoding():
    relative = "corpus/charsets/ja.euc-jp.txt"
    data = (ROOT / relative).read_bytes()
    got = iriscan.scan_bytes(data, format="text", charset="euc-jp", path=relative)
    text = ["--format", "text"] if cli_formats() else []
    assert ordered(got) == ordered(cli_records(relative, "-E", "euc-jp", *text))
    assert {r["charset_source"] for r in got} == {"given"}


@pytest.mark.parametrize("relative", archive_files())
def test_warc_equals_the_command_line(relative):
    if "warc" not in cli_formats():
        pytest.skip("this iriscan has no --format warc yet")
    data = (ROOT / relative).read_bytes()
    got = iriscan.scan_bytes(data, format="warc", path=relative)
    assert ordered(got) == ordered(cli_records(relative, "--format", "warc"))


@pytest.mark.parametrize("relative", mail_files())
def test_mail_equals_the_command_line(relative):
    if "mail" not in cli_formats():
        pytest.skip("this iriscan has no --format mail yet")
    data = (ROOT / relative).read_bytes()
    got = iriscan.scan_bytes(data, format="mail", path=relative)
    assert ordered(got) == ordered(cli_records(relative, "--format", "mail"))


def html_base(relative):
    """The address a corpus page is published at (`# base:` of its links)."""
    for line in (ROOT / (relative + ".links.txt")).read_text().splitlines():
        if line.startswith("# base: "):
            return line[len("# base: "):]
    raise AssertionError(relative + ": no base")


@pytest.mark.parametrize("relative", html_files())
def test_html_equals_the_librarys_expected_output(relative):
    data = (ROOT / relative).read_bytes()
    got = iriscan.scan_bytes(data, format="html", base=html_base(relative), path=relative)
    expected = [
        json.loads(line)
        for line in (ROOT / (relative + ".expected.jsonl")).read_text().splitlines()
    ]
    want = [e for e in expected if e.get("valid")]
    keys = ["source", "start", "end", "raw_start", "raw_end", "line", "column", "text", "iri",
            "uri", "kind"]
    assert [{k: r[k] for k in keys} for r in got] == [{k: e[k] for k in keys} for e in want]


@pytest.mark.parametrize("relative", html_files())
def test_html_equals_the_command_line(relative):
    if "html" not in cli_formats():
        pytest.skip("this iriscan has no --format html yet")
    data = (ROOT / relative).read_bytes()
    base = html_base(relative)
    got = iriscan.scan_bytes(data, format="html", base=base, path=relative)
    assert ordered(got) == ordered(cli_records(relative, "--format", "html", "--base", base))


@pytest.mark.parametrize("relative", archive_files())
def test_warc_equals_the_librarys_expected_output(relative):
    # The corpus's expected output (tests/warc/corpus.rs writes it from the
    # library), its valid hits: the same records, field for field.
    data = (ROOT / relative).read_bytes()
    got = iriscan.scan_bytes(data, format="warc", path=relative)
    expected = [
        json.loads(line)
        for line in (ROOT / (relative + ".expected.jsonl")).read_text().splitlines()
    ]
    want = [e for e in expected if e.get("valid")]
    # The library's test names the record's index `record` and its ID
    # `record_id`; the command line names them `record_index` and `record`.
    renamed = [dict(e, record_index=e["record"], record=e["record_id"]) for e in want]
    keys = ["record", "record_index", "target_uri", "source", "start", "end", "raw_start",
            "raw_end", "line", "column", "text", "iri", "uri", "kind"]
    assert [{k: r[k] for k in keys} for r in got] == [{k: e[k] for k in keys} for e in renamed]
    assert all(r["path"] == relative for r in got)
    # `auto` knows a WARC file by its first bytes, plain or compressed.
    assert iriscan.scan_bytes(data, path=relative) == got
    # Compressed, the hits have no offsets into the file's bytes.
    unraw = [dict(r, raw_start=None, raw_end=None) for r in got]
    assert iriscan.scan_bytes(gzip.compress(data), path=relative) == unraw


def test_a_truncated_archive_warns_and_keeps_the_records_before():
    data = (CORPUS / "warc" / "cc-main-2014-35-sample.warc").read_bytes()
    compressed = gzip.compress(data)
    whole = iriscan.scan_bytes(compressed, format="warc")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cut = iriscan.scan_bytes(compressed[: len(compressed) * 3 // 4], format="warc")
    assert caught and issubclass(caught[0].category, RuntimeWarning)
    assert str(caught[0].message).startswith("<bytes>: ")
    assert 0 < len(cut) < len(whole)
    # The records before the one cut short give what they give whole.
    last = cut[-1]["record_index"]
    before = [r for r in cut if r["record_index"] < last]
    assert before and before == whole[: len(before)]


def test_find_counts_characters_of_the_str():
    text = "見て http://例え.jp/パス。\nthen «www.example.org/é» ok"
    hits = iriscan.find(text)
    assert [h["iri"] for h in hits] == ["http://例え.jp/パス", "http://www.example.org/é"]
    for h in hits:
        assert text[h["start"] : h["end"]] == h["text"]
    assert [(h["line"], h["column"]) for h in hits] == [(1, 4), (2, 7)]
    # Bytes, as the command line counts them.
    as_bytes = iriscan.scan_bytes(text.encode(), format="text", charset="utf-8")
    assert [h["iri"] for h in as_bytes] == [h["iri"] for h in hits]
    assert [h["start"] for h in as_bytes] == [len(text[: h["start"]].encode()) for h in hits]
    assert list(hits[0]) == list(as_bytes[0])


def test_mapping_functions():
    assert iriscan.to_uri("http://例え.jp/パス") == "http://xn--r8jz45g.jp/%E3%83%91%E3%82%B9"
    assert iriscan.to_uri("http://example.jp/?q=東京", charset="shift_jis") == (
        "http://example.jp/?q=%93%8C%8B%9E"
    )
    assert iriscan.to_iri("http://example.org/%E2%82%AC") == "http://example.org/€"
    assert iriscan.to_iri("http://xn--r8jz45g.jp/", decode_punycode=True) == "http://例え.jp/"
    assert iriscan.normalize("HTTP://Example.ORG/a/./b/../c") == "http://example.org/a/c"
    assert iriscan.normalize("http://example.org:80", level="scheme") == "http://example.org/"
    assert iriscan.normalize("http://例え.jp/パス", form="uri").isascii()
    assert iriscan.resolve("http://example.org/a/b", "../c") == "http://example.org/c"


def test_bad_arguments_are_value_errors():
    with pytest.raises(ValueError, match="format"):
        iriscan.scan_bytes(b"", format="pdf")
    with pytest.raises(ValueError):
        iriscan.scan_bytes(b"", charset="no-such-charset")
    with pytest.raises(ValueError):
        iriscan.normalize("not an iri")
    with pytest.raises(ValueError, match="level"):
        iriscan.normalize("http://example.org/", level="deep")
    with pytest.raises(ValueError):
        iriscan.resolve("relative/base", "x")


def test_a_scan_lets_other_threads_run():
    # A thread scans; the main thread watches a flag the scanning thread
    # sets just before its call and clears just after. Were Python's lock
    # held through the call, the main thread could see the flag set only
    # around the call's two ends (measured: under a fifth of the call);
    # released while scanning, it sees it the whole call through.
    import sys
    import threading
    import time

    data = (CORPUS / "warc" / "cc-main-2014-35-sample.warc").read_bytes() * 40
    state = {"in_call": False}
    span = {}

    def scan():
        state["in_call"] = True
        span["start"] = time.perf_counter()
        iriscan.scan_bytes(data, format="warc")
        span["end"] = time.perf_counter()
        state["in_call"] = False

    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    try:
        seen = []
        thread = threading.Thread(target=scan)
        thread.start()
        while thread.is_alive():
            if state["in_call"]:
                seen.append(time.perf_counter())
        thread.join()
    finally:
        sys.setswitchinterval(interval)
    call = span["end"] - span["start"]
    watched = seen[-1] - seen[0] if seen else 0.0
    assert watched > call / 2, f"the main thread ran {watched:.3f} s of a {call:.3f} s scan"


def test_the_type_stub_names_every_function_with_its_parameters():
    import ast
    import inspect

    stub = ast.parse((ROOT / "python" / "iriscan.pyi").read_text())
    declared = {
        f.name: [a.arg for a in f.args.args] for f in stub.body if isinstance(f, ast.FunctionDef)
    }
    public = {
        name: list(inspect.signature(getattr(iriscan, name)).parameters)
        for name in dir(iriscan)
        if not name.startswith("_") and callable(getattr(iriscan, name))
    }
    assert declared == public
