//! Whole-process comparisons, side by side in one run (the machines are
//! shared and noisy, so only ratios measured together mean anything):
//!
//! - throughput of `iriscan --count` vs the `linkify` crate vs a bare
//!   `memchr` count of `:` (the floor) over the same files: English prose
//!   with sparse links, multilingual text, an access log, adversarial inputs
//!   at two sizes 8× apart (linear time);
//! - `--threads 2` vs `--threads 1` on one 256 MiB file, counting, printing
//!   IRIs and printing JSON, and counting on each kind of input (prose,
//!   multilingual, link-dense, and the adversarial runs without white
//!   space; four times as much of the kinds one thread reads at gigabytes
//!   a second, 1 GiB, so that a run takes a fifth of a second; 256 MiB
//!   with `--quick`), with identical output, beside two `--threads 1`
//!   processes run at once (the most two threads can give on the host at
//!   that time);
//! - `--each-line --normalize --unique` over a million and eight million IRI
//!   references with the same distinct keys: throughput, and peak memory
//!   that follows the distinct keys, not the input; and on the million
//!   lines, `--each-line --normalize` (with and without `--unique`) vs
//!   Node's WHATWG `URL` (`examples/compare/node_url_normalize.js`; the row
//!   is skipped where `node` is not installed);
//! - peak RSS scanning a 1 GiB file and 1 GiB on standard input.
//!
//! Run: `cargo build --release --bins --examples && target/release/examples/compare`
//! (`--quick` for smaller files and fewer runs; `--vs-node LINES` for the
//! comparison with Node alone).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "../benches/corpus.rs"]
mod corpus;

const MIB: usize = 1 << 20;

fn bin(name: &str) -> PathBuf {
    let here = std::env::current_exe().expect("current exe");
    let examples = here.parent().expect("examples dir");
    if name == "iriscan" {
        examples.parent().expect("profile dir").join("iriscan")
    } else {
        examples.join(name)
    }
}

/// Runs each command `runs` times, taking turns (so that a change of load
/// on a shared machine falls on every command alike): each command's wall
/// times in turn order, and its last stdout.
fn time(cmds: &[(&Path, &[&str])], runs: usize) -> Vec<Timed> {
    let mut times = vec![Vec::new(); cmds.len()];
    let mut outs = vec![String::new(); cmds.len()];
    // One untimed run of each first (page cache, binaries).
    for (cmd, args) in cmds {
        Command::new(cmd)
            .args(*args)
            .stdout(Stdio::null())
            .status()
            .expect("run");
    }
    for _ in 0..runs {
        for (k, (cmd, args)) in cmds.iter().enumerate() {
            let t = Instant::now();
            let o = Command::new(cmd)
                .args(*args)
                .stderr(Stdio::inherit())
                .output()
                .expect("run");
            times[k].push(t.elapsed());
            outs[k] = String::from_utf8_lossy(&o.stdout).into_owned();
        }
    }
    times
        .into_iter()
        .zip(outs)
        .map(|(turns, out)| Timed {
            turns,
            out: out.trim().to_string(),
        })
        .collect()
}

/// One command's runs (see [`time`]).
struct Timed {
    /// Wall times, one a turn.
    turns: Vec<Duration>,
    /// The last run's stdout, trimmed.
    out: String,
}

impl Timed {
    /// The median wall time.
    fn median(&self) -> Duration {
        median(self.turns.clone())
    }

    /// How many times longer `other` took than this, as the median of the
    /// ratios within each turn: the two ran minutes apart at most, so a
    /// drift of the host's speed between turns (tens of percent on a
    /// shared machine) cancels out, where a ratio of two medians takes it
    /// in.
    fn times_faster_than(&self, other: &Timed) -> f64 {
        median(
            self.turns
                .iter()
                .zip(&other.turns)
                .map(|(mine, theirs)| theirs.as_secs_f64() / mine.as_secs_f64())
                .collect(),
        )
    }
}

fn median<T: PartialOrd>(mut xs: Vec<T>) -> T {
    xs.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    xs.swap_remove(xs.len() / 2)
}

/// Times `args1` (one thread), `args2` (two threads) and two `args1`
/// processes started together, taking turns. The pair shows what two
/// threads can give on this host at this time at most: two independent
/// processes share nothing but the machine (caches, memory, the clock the
/// host allows two busy cores).
struct ThreadTimes {
    /// Median wall time of one thread, of two.
    t1: Duration,
    t2: Duration,
    /// Medians of the ratios within each turn (one thread ÷ two threads;
    /// twice one thread ÷ the pair): the three runs of a turn follow each
    /// other within a second, so a drift of the host's speed over the
    /// turns (this VM's moves by tens of percent within minutes) falls on
    /// both sides of each ratio.
    speed_up: f64,
    ceiling: f64,
}

fn time_threads(cmd: &Path, args1: &[&str], args2: &[&str], runs: usize) -> ThreadTimes {
    let quiet = |args: &[&str]| {
        let mut c = Command::new(cmd);
        c.args(args).stdout(Stdio::null());
        c
    };
    let (mut t1, mut t2, mut speed_up, mut ceiling) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    // One untimed run of each: the file into the page cache, the binary
    // into memory.
    quiet(args1).status().expect("run");
    quiet(args2).status().expect("run");
    for _ in 0..runs {
        let t = Instant::now();
        quiet(args1).status().expect("run");
        let one = t.elapsed();
        let t = Instant::now();
        quiet(args2).status().expect("run");
        let two = t.elapsed();
        let t = Instant::now();
        let mut a = quiet(args1).spawn().expect("spawn");
        let mut b = quiet(args1).spawn().expect("spawn");
        a.wait().expect("wait");
        b.wait().expect("wait");
        let pair = t.elapsed();
        speed_up.push(one.as_secs_f64() / two.as_secs_f64());
        ceiling.push(2.0 * one.as_secs_f64() / pair.as_secs_f64());
        t1.push(one);
        t2.push(two);
    }
    ThreadTimes {
        t1: median(t1),
        t2: median(t2),
        speed_up: median(speed_up),
        ceiling: median(ceiling),
    }
}

fn mibs(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / MIB as f64 / d.as_secs_f64()
}

/// Peak resident memory (VmHWM) of a command, polled from /proc while it
/// runs (the high-water mark only grows).
fn peak_rss(mut cmd: Command) -> u64 {
    let mut child = cmd.stdout(Stdio::null()).spawn().expect("spawn");
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        if let Ok(s) = std::fs::read_to_string(&status)
            && let Some(line) = s.lines().find(|l| l.starts_with("VmHWM:"))
        {
            let kb: u64 = line
                .split_whitespace()
                .nth(1)
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            peak = peak.max(kb);
        }
        if child.try_wait().expect("wait").is_some() {
            return peak;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Writes a corpus file and waits until it is on disk: the kernel would
/// otherwise write it back during the first timings, on one of the two
/// cores (which showed as a low `--count` speed-up, the first mode timed
/// after the 256 MiB file was written).
fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    let mut f = std::fs::File::create(&p).expect("create corpus");
    f.write_all(text.as_bytes()).expect("write corpus");
    f.sync_all().expect("sync corpus");
    p
}

/// The head of a table of [`thread_row`]s.
const THREADS_HEADER: &str = "| output | 1 thread | 2 threads | speed-up (median of the turns' ratios) | two 1-thread processes at once (the host's ceiling, likewise) | output of 1 and 2 threads |\n|---|---|---|---|---|---|";

/// One row of a threads table: `iriscan [mode] --threads 1|2 path` timed
/// by [`time_threads`], and whether both print the same.
fn thread_row(
    iriscan: &Path,
    name: &str,
    mode: Option<&str>,
    path: &str,
    bytes: usize,
    runs: usize,
) -> String {
    let args = |threads| {
        mode.into_iter()
            .chain(["--threads", threads, path])
            .collect::<Vec<&str>>()
    };
    let (args1, args2) = (args("1"), args("2"));
    let times = time_threads(iriscan, &args1, &args2, runs);
    let out1 = Command::new(iriscan).args(&args1).output().expect("run");
    let out2 = Command::new(iriscan).args(&args2).output().expect("run");
    format!(
        "| {name} | {:.0} MiB/s | {:.0} MiB/s | {:.2}× | {:.2}× | {} |",
        mibs(bytes, times.t1),
        mibs(bytes, times.t2),
        times.speed_up,
        times.ceiling,
        if out1.stdout == out2.stdout {
            "identical"
        } else {
            "DIFFERENT"
        }
    )
}

/// An adversarial input of the corpus by its name, `bytes` long.
fn adversarial(name: &str, bytes: usize) -> String {
    let unit = corpus::ADVERSARIAL
        .iter()
        .find(|(n, _)| *n == name)
        .expect("corpus kind")
        .1;
    corpus::adversarial(unit, bytes)
}

/// `n` lines of IRI references (one per line, the last one ended too).
fn iri_lines_text(n: usize) -> (String, usize) {
    let (lines, keys) = corpus::iri_lines(n);
    let mut text = lines.join("\n");
    text.push('\n');
    (text, keys)
}

/// The Node script of [`bulk_vs_node`], beside this file.
const NODE_SCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/examples/compare/node_url_normalize.js"
);

/// `iriscan --each-line --normalize [--unique]` vs Node's WHATWG `URL`
/// (the ada parser: `new URL(line).href` for each line, a `Set` for
/// `--unique`) on the same `n` lines, taking turns. Skipped, with a note,
/// where `node` is not installed.
fn bulk_vs_node(iriscan: &Path, n: usize, lines: &Path, runs: usize) {
    // The two run a second or more each: the host's speed drifts between
    // turns, so the ratio is taken within each turn (as in `time_threads`).
    let runs = runs.max(5);
    println!("\n## Bulk normalization vs Node's `URL` ({n} lines, median of {runs} runs)\n");
    let node = match Command::new("node").arg("--version").output() {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).trim().to_string(),
        _ => {
            println!("(skipped: `node` is not installed)");
            return;
        }
    };
    println!(
        "| iriscan | Node {node}, `new URL(line).href` | iriscan | Node | Node ÷ iriscan (median of the turns' ratios) |"
    );
    println!("|---|---|---|---|---|");
    let ls = lines.to_str().unwrap();
    for unique in [false, true] {
        let mut args = vec!["--each-line", "--normalize"];
        let mut node_args = vec![NODE_SCRIPT];
        if unique {
            args.push("--unique");
            node_args.push("--unique");
        }
        args.push(ls);
        node_args.push(ls);
        let run = |cmd: &Path, args: &[&str]| {
            let t = Instant::now();
            let o = Command::new(cmd)
                .args(args)
                .stderr(Stdio::inherit())
                .output()
                .expect("run");
            assert!(o.status.success(), "{} failed", cmd.display());
            (t.elapsed(), o.stdout)
        };
        let node_bin = Path::new("node");
        // One untimed run of each (page cache, binaries); the outputs are
        // checked: one line per input line on both sides.
        for (name, (_, out)) in [
            ("iriscan", run(iriscan, &args)),
            ("node", run(node_bin, &node_args)),
        ] {
            if !unique {
                assert_eq!(
                    out.split(|&b| b == b'\n').count() - 1,
                    n,
                    "{name}: one line per input line"
                );
            }
        }
        let (mut ti, mut tn, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..runs {
            let (a, _) = run(iriscan, &args);
            let (b, _) = run(node_bin, &node_args);
            ratio.push(b.as_secs_f64() / a.as_secs_f64());
            ti.push(a);
            tn.push(b);
        }
        println!(
            "| `{}` | {} | {:.2} s | {:.2} s | {:.2}× |",
            args[..args.len() - 1].join(" "),
            if unique {
                "each `href` once (a `Set`)"
            } else {
                "every `href`"
            },
            median(ti).as_secs_f64(),
            median(tn).as_secs_f64(),
            median(ratio)
        );
    }
    println!(
        "\n(Node's `href` is the WHATWG serialization: it keeps `%32` encoded where RFC 3986 \
         normalization decodes it, so Node finds more distinct keys.)"
    );
}

/// What the command takes (`--help`; any other argument is refused
/// rather than taken for a full run of several minutes).
const USAGE: &str =
    "usage: compare [--quick]          the whole comparison (--quick: smaller files)
       compare --vs-node LINES     just iriscan against Node's URL on LINES lines
       compare --write KIND MIB PATH   write a corpus file (prose, multilingual, log,
                                   dense, or an adversarial kind)
       compare --write iri-lines LINES PATH   the bulk normalization input";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let known = ["--quick", "--vs-node", "--write"];
    if args
        .get(1)
        .is_some_and(|a| a.starts_with('-') && !known.contains(&a.as_str()))
    {
        let help = matches!(args[1].as_str(), "--help" | "-h");
        if help {
            println!("{USAGE}");
            return;
        }
        eprintln!("compare: unknown argument {:?}\n{USAGE}", args[1]);
        std::process::exit(2);
    }
    // `compare --write iri-lines LINES PATH`: the bulk normalization input
    // (for profiling).
    if args.get(1).map(String::as_str) == Some("--write")
        && args.get(2).map(String::as_str) == Some("iri-lines")
        && args.len() == 5
    {
        let n = args[3].parse::<usize>().expect("number of lines");
        std::fs::write(&args[4], iri_lines_text(n).0).expect("write");
        return;
    }
    // `compare --vs-node LINES`: just the comparison with Node's `URL`.
    if args.get(1).map(String::as_str) == Some("--vs-node") && args.len() == 3 {
        let n = args[2].parse::<usize>().expect("number of lines");
        let dir = std::env::temp_dir().join(format!("iriscan-compare-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let p = write(&dir, "lines.txt", &iri_lines_text(n).0);
        bulk_vs_node(&bin("iriscan"), n, &p, 5);
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    // `compare --write KIND MIB PATH`: just write a corpus (for profiling).
    if args.get(1).map(String::as_str) == Some("--write") && args.len() == 5 {
        let size = args[3].parse::<usize>().expect("MiB") * MIB;
        let text = match args[2].as_str() {
            "prose" => corpus::prose(size).0,
            "multilingual" => corpus::multilingual(size).0,
            "log" => corpus::access_log(size).0,
            "dense" => corpus::link_dense(size).0,
            other => match corpus::ADVERSARIAL.iter().find(|(n, _)| *n == other) {
                Some(&(_, unit)) => corpus::adversarial(unit, size),
                None => {
                    let kinds: Vec<&str> = corpus::ADVERSARIAL.iter().map(|(n, _)| *n).collect();
                    eprintln!(
                        "compare: no corpus kind {other:?}: prose, multilingual, log, dense, or one of {}",
                        kinds.join(", ")
                    );
                    std::process::exit(2);
                }
            },
        };
        std::fs::write(&args[4], text).expect("write");
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    let (size, runs) = if quick { (16 * MIB, 3) } else { (64 * MIB, 9) };
    let dir = std::env::temp_dir().join(format!("iriscan-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let iriscan = bin("iriscan");
    let linkify = bin("linkify_count");
    let memchr = bin("memchr_count");
    for b in [&iriscan, &linkify, &memchr] {
        assert!(
            b.exists(),
            "{} missing: cargo build --release --bins --examples",
            b.display()
        );
    }

    println!(
        "## Throughput, single thread ({} MiB files, median of {runs} runs)\n",
        size / MIB
    );
    println!(
        "| input | iriscan | linkify | linkify (scheme only) | memchr `:` floor | iriscan ÷ linkify (median of the turns' ratios) | floor ÷ iriscan (likewise) |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut prose_file = None;
    for (name, (text, links)) in [
        ("English prose, sparse links", corpus::prose(size)),
        ("multilingual text with IRIs", corpus::multilingual(size)),
        ("access log", corpus::access_log(size)),
        ("link-dense text, 20+ scripts", corpus::link_dense(size)),
    ] {
        let file = if name.starts_with("English") {
            "prose.txt"
        } else {
            "input.txt"
        };
        let p = write(&dir, file, &text);
        let ps = p.to_str().unwrap();
        let timed = time(
            &[
                (&iriscan, &["--count", "--threads", "1", ps]),
                (&linkify, &[ps]),
                (&linkify, &[ps, "--scheme-only"]),
                (&memchr, &[ps]),
            ],
            runs,
        );
        assert_eq!(timed[0].out, links.to_string(), "{name}: iriscan hit count");
        let [ti, tl, ts, tm] = [0, 1, 2, 3].map(|k| timed[k].median());
        let n = text.len();
        if name.starts_with("English") {
            prose_file = Some((p.clone(), n));
        }
        println!(
            "| {name} | {:.0} MiB/s | {:.0} MiB/s | {:.0} MiB/s | {:.0} MiB/s | {:.2}× | {:.2}× |",
            mibs(n, ti),
            mibs(n, tl),
            mibs(n, ts),
            mibs(n, tm),
            timed[0].times_faster_than(&timed[1]),
            timed[3].times_faster_than(&timed[0])
        );
    }

    println!("\n## Adversarial inputs, single thread (two sizes 8× apart)\n");
    println!(
        "| input | {} MiB | {} MiB | of prose throughput (median of the turns' ratios) | time ratio (8× input) |",
        size / 8 / MIB,
        size / MIB
    );
    println!("|---|---|---|---|---|");
    for &(name, unit) in corpus::ADVERSARIAL {
        let small = corpus::adversarial(unit, size / 8);
        let large = corpus::adversarial(unit, size);
        let ps = write(&dir, "small.txt", &small);
        let pl = write(&dir, "large.txt", &large);
        let (prose, prose_len) = prose_file.as_ref().expect("prose measured first");
        let timed = time(
            &[
                (
                    &iriscan,
                    &["--count", "--threads", "1", ps.to_str().unwrap()],
                ),
                (
                    &iriscan,
                    &["--count", "--threads", "1", pl.to_str().unwrap()],
                ),
                (
                    &iriscan,
                    &["--count", "--threads", "1", prose.to_str().unwrap()],
                ),
            ],
            runs,
        );
        let [t1, t8] = [0, 1].map(|k| timed[k].median());
        let speed = mibs(large.len(), t8);
        // Its throughput over prose's, turn by turn.
        let of_prose =
            timed[1].times_faster_than(&timed[2]) * large.len() as f64 / *prose_len as f64;
        println!(
            "| `{name}` | {:.0} MiB/s | {:.0} MiB/s | {:.0}% | {:.1} |",
            mibs(small.len(), t1),
            speed,
            100.0 * of_prose,
            t8.as_secs_f64() / t1.as_secs_f64()
        );
    }

    let big = if quick { 64 * MIB } else { 256 * MIB };
    // More runs than above: the host's speed drifts within seconds, and a
    // speed-up is a ratio of two such timings.
    let thread_runs = if quick { runs } else { 9 };
    println!(
        "\n## Threads ({} MiB multilingual file, median of {thread_runs} runs)\n",
        big / MIB
    );
    let (text, _) = corpus::multilingual(big);
    let p = write(&dir, "big.txt", &text);
    drop(text);
    let ps = p.to_str().unwrap();
    println!("{THREADS_HEADER}");
    for (name, mode) in [
        ("`--count`", Some("--count")),
        ("IRIs (default)", None),
        ("`--json`", Some("--json")),
    ] {
        println!("{}", thread_row(&iriscan, name, mode, ps, big, thread_runs));
    }

    // Every kind of input, those without white space included: a piece of
    // any of them may start anywhere (issue 12). The inputs one thread
    // reads at gigabytes a second are four times larger: at 256 MiB a run
    // took 0.05 s, of which the process's start and the pipeline's first
    // and last blocks (not shared) were a tenth, and the host's noise
    // moved the speed-up from 0.96× to 1.5× between two runs of one
    // binary.
    let cheap = 4 * big;
    println!(
        "\n## Threads, `--count` on every input ({} MiB each, {} MiB for the fast ones; median of {thread_runs} runs)\n",
        big / MIB,
        cheap / MIB
    );
    println!("{}", THREADS_HEADER.replacen("output", "input", 1));
    type Make<'a> = &'a dyn Fn(usize) -> String;
    let inputs: [(&str, usize, Make); 7] = [
        ("English prose", cheap, &|n| corpus::prose(n).0),
        ("multilingual", big, &|n| corpus::multilingual(n).0),
        ("link-dense", big, &|n| corpus::link_dense(n).0),
        ("`scheme-run`", cheap, &|n| adversarial("scheme-run", n)),
        ("`no-space`", cheap, &|n| adversarial("no-space", n)),
        ("`a.a~`", cheap, &|n| adversarial("a.a~", n)),
        ("`parens`", cheap, &|n| adversarial("parens", n)),
    ];
    for (name, bytes, make) in inputs {
        let p = write(&dir, "big.txt", &make(bytes));
        let ps = p.to_str().unwrap();
        println!(
            "{}",
            thread_row(&iriscan, name, Some("--count"), ps, bytes, thread_runs)
        );
    }

    println!("\n## Bulk normalization (`--each-line --normalize --unique`)\n");
    println!("| lines | distinct keys | time | throughput | peak RSS |");
    println!("|---|---|---|---|---|");
    let bulk_sizes: &[usize] = if quick {
        &[250_000, 2_000_000]
    } else {
        &[1_000_000, 8_000_000]
    };
    let mut first_lines = None;
    for &n in bulk_sizes {
        let (text, keys) = iri_lines_text(n);
        let p = write(&dir, &format!("lines-{n}.txt"), &text);
        first_lines.get_or_insert((n, p.clone()));
        let args = [
            "--each-line",
            "--normalize",
            "--unique",
            p.to_str().unwrap(),
        ];
        let timed = time(&[(&iriscan, &args)], runs.min(3)).remove(0);
        let (t, out) = (timed.median(), timed.out);
        assert_eq!(
            out.lines().count(),
            keys,
            "{n} lines: distinct keys printed"
        );
        let mut cmd = Command::new(&iriscan);
        cmd.args(args);
        println!(
            "| {n} | {keys} | {:.2} s | {:.2} M lines/s ({:.0} MiB/s) | {:.1} MiB |",
            t.as_secs_f64(),
            n as f64 / 1e6 / t.as_secs_f64(),
            mibs(text.len(), t),
            peak_rss(cmd) as f64 / 1024.0
        );
    }

    let (n, lines) = first_lines.expect("a bulk size");
    bulk_vs_node(&iriscan, n, &lines, runs);

    let huge = if quick { 256 * MIB } else { 1024 * MIB };
    println!("\n## Peak memory ({} MiB input)\n", huge / MIB);
    {
        let mut f =
            std::io::BufWriter::new(std::fs::File::create(dir.join("huge.txt")).expect("create"));
        let (block, _) = corpus::multilingual(16 * MIB);
        let mut written = 0;
        while written < huge {
            f.write_all(block.as_bytes()).expect("write");
            written += block.len();
        }
    }
    let huge_path = dir.join("huge.txt");
    let huge_len = std::fs::metadata(&huge_path).map(|m| m.len()).unwrap_or(0);
    println!("| how | peak RSS |");
    println!("|---|---|");
    for threads in ["1", "2"] {
        let mut cmd = Command::new(&iriscan);
        cmd.args(["--json", "--threads", threads]).arg(&huge_path);
        println!(
            "| file, --threads {threads} | {:.1} MiB |",
            peak_rss(cmd) as f64 / 1024.0
        );
        let mut cmd = Command::new(&iriscan);
        cmd.args(["--json", "--threads", threads])
            .stdin(std::fs::File::open(&huge_path).expect("open"));
        println!(
            "| standard input, --threads {threads} | {:.1} MiB |",
            peak_rss(cmd) as f64 / 1024.0
        );
    }
    println!("\n({} bytes scanned per memory run)", huge_len);
    let _ = std::fs::remove_dir_all(&dir);
}
