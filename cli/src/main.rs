//! `iriscan`: find IRIs in files and print them (docs/rules.md §4).
//!
//! The program is a pipeline of separate steps, each in its own module:
//!
//! - [`args`]: the command line (clap);
//! - [`walk`]: PATH arguments → inputs (standard input, files, directories
//!   walked as ripgrep walks them, in path order) and reading an input's
//!   bytes;
//! - [`decompress`]: compressed inputs (`-z`), decompressed as read;
//! - [`binary`]: whether an input is binary (a NUL byte), and what then;
//! - [`structured`]: `--format`: mail, HTML and WARC inputs told apart
//!   and read by the library's readers;
//! - [`scan`]: an input's bytes → hits (with line and column)
//!   ([`scan::scan_input`], the seam where streaming and parallel readers
//!   plug in); [`each_line`] is the `--each-line` counterpart;
//! - [`in_order`](mod@in_order): with several threads, the inputs scanned side by side
//!   on the pool and printed in input order, as one thread prints them;
//! - [`output`] and [`line_output`]: records → plain text, JSON Lines
//!   ([`json`]) or counts, with `--unique` in [`unique`], written to
//!   [`stdout`] (line- or block-buffered);
//! - [`interrupt`]: Ctrl-C and SIGTERM write out what was found, then end
//!   the run; [`stats`]: `--stats`; [`generate`]: `--generate`.
//!
//! Exit status as grep: 0 if something was found, 1 if nothing, 2 if an
//! error occurred (an error wins over 0), 128 + the signal's number after
//! SIGINT or SIGTERM. A closed standard output (as in `iriscan big.txt |
//! head`) ends the program quietly with status 0.

mod args;
mod binary;
mod decompress;
mod each_line;
mod generate;
mod in_order;
mod interrupt;
mod json;
mod line_output;
mod output;
mod progress;
mod scan;
mod stats;
mod stdout;
mod structured;
mod unique;
mod utf16_hint;
mod walk;

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Parser;
use encoding_rs::Encoding;
use iriscan::{Charset, HitFilter, InputFormat, Searcher, Summary};

/// glibc's allocator serializes threads that allocate at once (rendering
/// hits on the pool: `__lll_lock_wait_private` was a third of the time of
/// `--json --threads 2`); mimalloc keeps a heap per thread. Built not to
/// ask for transparent huge pages (`no_thp` in Cargo.toml): a scan's heap
/// is a few MiB, and a huge page costs its 2 MiB cleared at the first
/// touch.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use crate::args::Args;
use crate::binary::{BinaryCheck, BinaryRules, OnBinary, Sniffing};
use crate::each_line::LineOptions;
use crate::in_order::{Direct, Emit, Recorder};
use crate::line_output::LinePrinter;
use crate::output::{HitPrinter, Mode, Renderer, Settings};
use crate::progress::Progress;
use crate::scan::{InputError, ReadMode, Scanned};
use crate::stats::Stats;
use crate::stdout::{Buffering, Stdout};
use crate::structured::{FormatChoice, StructuredOptions};
use crate::utf16_hint::Utf16;
use crate::walk::{Input, Walk};

/// Messages about inputs go to standard error (not with `-s`).
static MESSAGES: AtomicBool = AtomicBool::new(true);

fn messages() -> bool {
    MESSAGES.load(Ordering::Relaxed)
}

fn main() -> ExitCode {
    let args = Args::parse();
    if let Some(what) = args.generate {
        return match generate::print(what, &mut io::stdout().lock()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                let _ = writeln!(io::stderr(), "iriscan: {e}");
                Status::Error.into()
            }
        };
    }
    if let Err(e) = args::check_normalize_value(std::env::args_os(), &args) {
        let _ = writeln!(io::stderr(), "iriscan: {e}");
        return Status::Error.into();
    }
    MESSAGES.store(!args.no_messages, Ordering::Relaxed);
    interrupt::watch();
    match run(&args) {
        Ok(status) => status.into(),
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "iriscan: {e:#}");
            Status::Error.into()
        }
    }
}

/// How a run ended (the exit status).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Found,
    NothingFound,
    Error,
    /// Stopped by this signal.
    Interrupted(i32),
}

impl Status {
    fn of(found: bool, error: bool) -> Status {
        match (found, error) {
            (_, true) => Status::Error,
            (true, false) => Status::Found,
            (false, false) => Status::NothingFound,
        }
    }
}

impl From<Status> for ExitCode {
    fn from(s: Status) -> ExitCode {
        ExitCode::from(match s {
            Status::Found => 0,
            Status::NothingFound => 1,
            Status::Error => 2,
            Status::Interrupted(signal) => u8::try_from(128 + signal).unwrap_or(130),
        })
    }
}

/// Scans every input; returns the exit status, or the error that stopped
/// the run (only output errors do: an unreadable input is reported and
/// skipped).
fn run(args: &Args) -> anyhow::Result<Status> {
    let encoding = match args.encoding() {
        Ok(e) => e,
        Err(e) => {
            let _ = writeln!(io::stderr(), "iriscan: --encoding: {e}");
            return Ok(Status::Error);
        }
    };
    let filter = match args.hit_filter() {
        Ok(f) => Arc::new(f),
        Err(e) => {
            let _ = writeln!(io::stderr(), "iriscan: {e}");
            return Ok(Status::Error);
        }
    };
    if let Some(base) = &args.base
        && let Err(e) = iriscan::parse_iri(base)
    {
        let _ = writeln!(io::stderr(), "iriscan: --base must be an absolute IRI: {e}");
        return Ok(Status::Error);
    }
    let walk = match Walk::new(&args.paths, args.walk_options()) {
        Ok(walk) => walk,
        Err(e) => {
            let _ = writeln!(io::stderr(), "iriscan: --glob: {e}");
            return Ok(Status::Error);
        }
    };
    let binary = args.binary_rules(encoding);
    let with_path = args.with_path(Walk::several_inputs(&args.paths));
    let buffering = Buffering::choose(args.line_buffered, args.block_buffered);
    // With -z the bytes counted are decompressed ones, which the files'
    // sizes do not tell: a spinner, not a bar that reaches 100% early.
    let total = if args.search_zip {
        None
    } else {
        progress::known_total(&args.paths)
    };
    let progress = Progress::new(total);
    let out = Stdout::new(buffering, &progress);
    // Input read as it arrives is scanned as it arrives when each hit is
    // to show at once, or when the first hit ends the run (`-q`).
    let incremental = buffering == Buffering::Line || args.quiet;
    let structured = StructuredOptions {
        finder: args.finder(),
        encoding,
        base: args.base.clone(),
    };
    // A lone small file of text or HTML is scanned on one thread (it is
    // not cut into pieces, and those readers take no help): with the pool
    // this thread alone, as with `-j 1`, no other thread is started for
    // nothing. (Mail and WARC readers share their messages and records
    // out on the pool.)
    let lone_limit = if args.search_zip {
        SMALL_COMPRESSED
    } else {
        in_order::SMALL_FILE
    };
    let threads = match walk::lone_file_len(&args.paths) {
        Some(len)
            if len < lone_limit && structured::read_on_one_thread(args.format, &args.paths[0]) =>
        {
            1
        }
        _ => args.threads(),
    };
    let mut job = Run::new(
        Job::new(args, threads, encoding, out, with_path, filter),
        incremental,
        args.format,
        structured,
    );
    job.reading.decompress = args.search_zip;
    let mut stats = Stats::start();
    // `--threads N` is N threads in all, this one included: it reads the
    // input and, while it waits for the pool, works on the pool's jobs. A
    // pool of N threads beside it would make N + 1 busy threads on N
    // cores, and the one left out waits a time slice per block. With
    // `-j 1` the pool is this thread alone: the mail and WARC readers
    // scan their batches on the pool. (If the pool is already built, it
    // stays as it is.)
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .use_current_thread()
        .build_global();
    let failed = match &mut job.job {
        // Several threads: inputs side by side on the pool, printed in
        // order (a single small input is scanned here on one thread).
        Job::Hits(searcher, printer) if threads > 1 => {
            let renderer = printer.renderer();
            let scan = HitScan::of(searcher, printer, &renderer, &job.reading, &progress);
            // With `-m`, `-l` or `-q` a scan stops early, and what a
            // structured input's reader says after the stop is not
            // reported: such an input is scanned at its turn.
            let may_stop = args.max_count.is_some() || args.files_with_matches || args.quiet;
            in_order(walk, &scan, printer, &binary, may_stop, threads, &mut stats)?
        }
        _ => {
            let mut failed = false;
            for item in walk {
                if job.done() || interrupt::received().is_some() {
                    break;
                }
                match item {
                    Ok(input) => {
                        let check = binary.check(input.walked);
                        failed |= job.input(&input, &progress, check, &mut stats)?;
                    }
                    Err(e) => {
                        report(&e.name, &e.err);
                        failed = true;
                    }
                }
            }
            failed
        }
    };
    progress.finish();
    if let Some(signal) = interrupt::received() {
        // What was found is written out (the scans stopped at the signal).
        job.flush()?;
        return Ok(Status::Interrupted(signal));
    }
    if args.stats && !args.quiet {
        let Job::Hits(_, printer) = &mut job.job else {
            unreachable!("--stats conflicts with --each-line")
        };
        stats.hits = printer.hits;
        stats.inputs_with_hits = printer.inputs_with_hits;
        let out = printer.out();
        stats.bytes_printed = out.written();
        stats.print(out)?;
    }
    job.flush()?;
    Ok(job.status(failed))
}

/// Scans the inputs of `walk` side by side on the pool and prints them in
/// walk order ([`in_order`](mod@in_order)); returns whether one failed, or the output's
/// error.
fn in_order<W: Write>(
    walk: Walk,
    scan: &HitScan<'_>,
    printer: &mut HitPrinter<W>,
    binary: &BinaryRules,
    may_stop: bool,
    threads: usize,
    stats: &mut Stats,
) -> io::Result<bool> {
    let one_thread = scan.searcher.clone().threads(1);
    let apart = HitScan {
        searcher: &one_thread,
        ..*scan
    };
    let apart = &apart;
    // Set when the run is over before the inputs are: the scans not
    // started yet are not started.
    let over = &AtomicBool::new(false);
    let mut failed = false;
    let mut walk = walk.peekable();
    rayon::in_place_scope_fifo(|pool| {
        let mut window = in_order::Window::new(threads * WINDOW_INPUTS, WINDOW_BYTES);
        let mut ended = false;
        let mut take_turns = || -> io::Result<()> {
            loop {
                if printer.done() || interrupt::received().is_some() {
                    // As with one thread, the inputs after the one whose
                    // scan the signal stopped are not printed (nor
                    // scanned, if not started).
                    over.store(true, Ordering::Relaxed);
                    return Ok(());
                }
                // The inputs whose turn has come; the walk's next input
                // when none has (and the window has room).
                let turn = if ended || window.is_full() {
                    window.next()
                } else {
                    window.ready()
                };
                match turn {
                    Some(turn) => {
                        failed |= take_turn(turn, scan, printer, binary, stats)?;
                        continue;
                    }
                    None if ended => return Ok(()),
                    None => {}
                }
                let Some(item) = walk.next() else {
                    ended = true;
                    continue;
                };
                let input = match item {
                    Ok(input) => input,
                    Err(e) => {
                        window.push(in_order::Pending::Unreadable(e), 0);
                        continue;
                    }
                };
                // Standard input, a FIFO or a device named is read as it
                // arrives, at its turn (and opened once: a FIFO's writer
                // sees its reader go); so is an input alone (the last of
                // the walk with nothing in flight): sharing it out would
                // cost and gain nothing. (A walk finds regular files only.)
                let Some(size) = input.size else {
                    window.push(in_order::Pending::AtItsTurn(input), 0);
                    continue;
                };
                if window.is_empty() && walk.peek().is_none() {
                    window.push(in_order::Pending::AtItsTurn(input), size);
                    continue;
                }
                let (send, outcome) = std::sync::mpsc::sync_channel(1);
                pool.spawn_fifo(move |_| {
                    let outcome = if over.load(Ordering::Relaxed) {
                        in_order::Outcome::AtItsTurn
                    } else {
                        scan_apart(apart, &input, binary.check(input.walked), may_stop)
                    };
                    let _ = send.send((input, outcome));
                });
                window.push(in_order::Pending::OnPool(outcome), size);
            }
        };
        let taken = take_turns();
        if taken.is_err() {
            // The output failed: the scans in flight are not printed.
            over.store(true, Ordering::Relaxed);
        }
        taken
    })?;
    Ok(failed)
}

/// Takes the turn of the input at the front of the window: prints what
/// its scan recorded, or scans it now (streamed, on all threads); returns
/// whether it failed.
fn take_turn<W: Write>(
    turn: in_order::Turn,
    scan: &HitScan<'_>,
    printer: &mut HitPrinter<W>,
    binary: &BinaryRules,
    stats: &mut Stats,
) -> io::Result<bool> {
    let input = match turn {
        in_order::Turn::Came(input, in_order::Outcome::Recorded { events, failed }) => {
            in_order::replay(events, input.path_bytes(), printer, stats)?;
            return failed;
        }
        in_order::Turn::Came(input, in_order::Outcome::AtItsTurn)
        | in_order::Turn::ScanNow(input) => input,
        in_order::Turn::Unreadable(e) => {
            report(&e.name, &e.err);
            return Ok(true);
        }
    };
    if interrupt::received().is_some() {
        return Ok(false);
    }
    // A small file is not worth the pool's setup: scanned on one thread.
    let one_thread;
    let scan = if input.size.is_some_and(|n| n < in_order::SMALL_FILE) {
        one_thread = scan.searcher.clone().threads(1);
        &HitScan {
            searcher: &one_thread,
            ..*scan
        }
    } else {
        scan
    };
    let check = binary.check(input.walked);
    scan_hits(scan, &input, check, &mut Direct { printer, stats })
}

/// Scans a small input on this thread (one of the pool's) and records
/// what printing it does; an input that is not small is left for its turn.
fn scan_apart(
    scan: &HitScan<'_>,
    input: &Input,
    binary: BinaryCheck,
    may_stop: bool,
) -> in_order::Outcome {
    let mut record = Recorder::start();
    let (reader, len) = match input.open_sized(scan.reading.decompress) {
        Ok(opened) => opened,
        Err(e) => {
            report_open(&input.name, &e);
            return in_order::Outcome::Recorded {
                events: record.finish(),
                failed: Ok(true),
            };
        }
    };
    let limit = if matches!(reader, walk::Reader::Decompressed(_)) {
        in_order::SMALL_COMPRESSED_FILE
    } else {
        in_order::SMALL_FILE
    };
    let Some(len) = len else {
        return in_order::Outcome::AtItsTurn;
    };
    // An HTML page of any size is read whole and scanned on one thread:
    // here as well as at its turn (where it would hold up the walk).
    let small = len < limit;
    if !small
        && scan.reading.format != FormatChoice::Auto
        && scan.reading.format != FormatChoice::Given(InputFormat::Html)
    {
        return in_order::Outcome::AtItsTurn;
    }
    let (format, told, reader) =
        match structured::choose(scan.reading.format, input.file_name(), reader) {
            Ok(chosen) => chosen,
            Err(err) => {
                report_read(&input.name, 0, &err);
                return in_order::Outcome::Recorded {
                    events: record.finish(),
                    failed: Ok(true),
                };
            }
        };
    if (!small && format != InputFormat::Html) || (may_stop && format != InputFormat::Text) {
        return in_order::Outcome::AtItsTurn;
    }
    let failed = scan_chosen(scan, input, (format, told, reader), binary, &mut record);
    in_order::Outcome::Recorded {
        events: record.finish(),
        failed,
    }
}

/// How many inputs (for each thread) and how many bytes of them may be in
/// flight ([`in_order::Window`]): enough that while one long scan (a large
/// HTML page) runs, the other threads scan the inputs after it.
const WINDOW_INPUTS: usize = 256;
const WINDOW_BYTES: u64 = 64 << 20;

/// Compressed files smaller than this are scanned on one thread.
const SMALL_COMPRESSED: u64 = 64 << 10;

/// What scanning an input for hits needs, on whichever thread it runs.
#[derive(Clone, Copy)]
struct HitScan<'a> {
    searcher: &'a Searcher,
    renderer: &'a Renderer,
    /// Only counts are printed: text is scanned without making hits
    /// ([`HitPrinter::counts_only`]).
    counts_only: bool,
    reading: &'a Reading,
    progress: &'a Progress,
}

impl<'a> HitScan<'a> {
    /// The scan of `printer`'s job with `searcher`, reading as `reading`
    /// says; `renderer` is `printer.renderer()`.
    fn of<W: Write>(
        searcher: &'a Searcher,
        printer: &HitPrinter<W>,
        renderer: &'a Renderer,
        reading: &'a Reading,
        progress: &'a Progress,
    ) -> HitScan<'a> {
        HitScan {
            searcher,
            renderer,
            counts_only: printer.counts_only(),
            reading,
            progress,
        }
    }
}

/// Opens `input`, tells its format and scans it, handing what it finds to
/// `out`; returns whether the input failed (reported on standard error),
/// or the output's error.
fn scan_hits(
    scan: &HitScan<'_>,
    input: &Input,
    binary: BinaryCheck,
    out: &mut impl Emit,
) -> io::Result<bool> {
    let reader = match input.open(scan.reading.decompress) {
        Ok(r) => r,
        Err(e) => {
            report_open(&input.name, &e);
            return Ok(true);
        }
    };
    match structured::choose(scan.reading.format, input.file_name(), reader) {
        Ok(chosen) => scan_chosen(scan, input, chosen, binary, out),
        Err(err) => {
            report_read(&input.name, 0, &err);
            Ok(true)
        }
    }
}

/// Scans `input`, opened and its format told ([`structured::choose`]).
fn scan_chosen(
    scan: &HitScan<'_>,
    input: &Input,
    (format, told, reader): (InputFormat, iriscan::ToldBy, walk::Reader),
    binary: BinaryCheck,
    out: &mut impl Emit,
) -> io::Result<bool> {
    let name = input.name.as_str();
    let path = input.path_bytes();
    let renderer = scan.renderer;
    if messages() {
        structured::note_guess(name, format, told);
    }
    if format != InputFormat::Text {
        let scanned = structured::scan_structured(
            format,
            reader,
            input,
            scan.progress,
            &scan.reading.structured,
            renderer,
            out,
        )?;
        out.scanned(scanned.bytes);
        out.end_input(path)?;
        return Ok(scanned.failed);
    }
    // A small compressed file (its size says nothing of what it holds)
    // on one thread: the pipeline's setup would cost more than it gives.
    let one_thread;
    let searcher = if matches!(reader, walk::Reader::Decompressed(_))
        && input.len().is_some_and(|n| n < SMALL_COMPRESSED)
    {
        one_thread = scan.searcher.clone().threads(1);
        &one_thread
    } else {
        scan.searcher
    };
    let mode = ReadMode {
        binary,
        incremental: scan.reading.incremental,
    };
    let r = if scan.counts_only {
        let mut counts = iriscan::Counts::default();
        let r = scan::count_input(reader, name, scan.progress, searcher, mode, &mut counts);
        out.counts(&counts);
        r
    } else {
        scan::scan_input(
            reader,
            name,
            scan.progress,
            searcher,
            mode,
            |hit| renderer.render(path, hit),
            |rendered| out.emit(path, rendered),
        )
    };
    let failed = match r {
        Ok(Scanned::Whole {
            summary,
            nul,
            utf16,
        }) => {
            out.scanned(summary.bytes);
            warn_binary(name, nul);
            warn_scanned(name, &summary, utf16);
            false
        }
        Ok(Scanned::SkippedBinary { nul }) => {
            note_skipped_binary(name, nul);
            return Ok(false);
        }
        Err(e) => read_failed(name, e)?,
    };
    out.end_input(path)?;
    Ok(failed)
}

/// What is done with each input: find hits in running text, or check each
/// line as one IRI reference.
enum Job<W: Write> {
    Hits(Searcher, HitPrinter<W>),
    Lines(LineOptions, Option<&'static Encoding>, LinePrinter<W>),
}

/// The job of a run, and how it reads its inputs.
struct Run<W: Write> {
    job: Job<W>,
    reading: Reading,
}

/// How a run reads its inputs.
struct Reading {
    /// Hand on each hit as soon as its line is read (line-buffered output).
    incremental: bool,
    /// Decompress compressed inputs (`-z`).
    decompress: bool,
    /// `--format`, and how structured inputs are read.
    format: FormatChoice,
    structured: StructuredOptions,
}

impl<W: Write> std::ops::Deref for Run<W> {
    type Target = Job<W>;
    fn deref(&self) -> &Job<W> {
        &self.job
    }
}

impl<W: Write> std::ops::DerefMut for Run<W> {
    fn deref_mut(&mut self) -> &mut Job<W> {
        &mut self.job
    }
}

impl<W: Write> Job<W> {
    /// Whether the run is over before the inputs are (`-q` found a hit).
    fn done(&self) -> bool {
        match self {
            Job::Hits(_, p) => p.done(),
            Job::Lines(..) => false,
        }
    }

    fn new(
        args: &Args,
        threads: usize,
        encoding: Option<&'static Encoding>,
        out: W,
        with_path: bool,
        filter: Arc<HitFilter>,
    ) -> Job<W> {
        if args.each_line {
            let opts = LineOptions {
                uri: args.uri_options(),
                to_uri: args.to_uri(),
                base: args.base.clone(),
                normalize: args.normalization(args.to_uri()),
            };
            return Job::Lines(
                opts,
                encoding,
                LinePrinter::new(out, args.json, with_path, args.unique),
            );
        }
        let mode = if args.quiet {
            Mode::Quiet
        } else if args.json {
            Mode::Json
        } else if args.count {
            Mode::Count
        } else if args.files_with_matches {
            Mode::Files
        } else {
            Mode::Plain
        };
        let finder = args.finder();
        let settings = Settings {
            mode,
            uri: args.uri,
            invalid: args.invalid,
            unique: args.unique,
            with_path,
            uri_options: args.uri_options(),
            normalize: args.normalization(args.uri),
            line: args.line_numbers(),
            column: args.column || args.vimgrep,
            null: args.null,
            max_count: args.max_count,
            max_len: finder.max_iri_len(),
            messages: !args.no_messages,
            filter,
            deny: args.deny.unwrap_or_default(),
            no_warn: args.no_warn,
        };
        // Only JSON, `-n` and `--column` print line and column.
        let searcher = Searcher::new(finder)
            .threads(threads)
            .encoding(encoding)
            .line_numbers(args.json || args.line_numbers());
        Job::Hits(searcher, HitPrinter::new(out, settings))
    }

    /// Writes out what the output holds.
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Job::Hits(_, p) => p.out().flush(),
            Job::Lines(_, _, p) => p.end_input(),
        }
    }
}

impl<W: Write> Run<W> {
    fn new(
        job: Job<W>,
        incremental: bool,
        format: FormatChoice,
        structured: StructuredOptions,
    ) -> Run<W> {
        Run {
            job,
            reading: Reading {
                incremental,
                decompress: false,
                format,
                structured,
            },
        }
    }

    /// Scans one input and prints what it holds; returns whether the input
    /// failed (reported on standard error), or the output error.
    fn input(
        &mut self,
        input: &Input,
        progress: &Progress,
        binary: BinaryCheck,
        stats: &mut Stats,
    ) -> io::Result<bool> {
        match &mut self.job {
            Job::Hits(searcher, printer) => {
                let renderer = printer.renderer();
                let scan = HitScan::of(searcher, printer, &renderer, &self.reading, progress);
                scan_hits(&scan, input, binary, &mut Direct { printer, stats })
            }
            Job::Lines(opts, encoding, printer) => {
                let reader = match input.open(self.reading.decompress) {
                    Ok(r) => r,
                    Err(e) => {
                        report_open(&input.name, &e);
                        return Ok(true);
                    }
                };
                if binary.on_binary == OnBinary::Skip
                    && let walk::Reader::File(file) = &reader
                    && let Ok(meta) = file.metadata()
                    && meta.is_file()
                {
                    match scan::read_head(file, meta.len()) {
                        Ok((head, _)) => {
                            if let Some(nul) = binary.first_nul(&head) {
                                note_skipped_binary(&input.name, nul);
                                return Ok(false);
                            }
                        }
                        Err(err) => {
                            report_read(&input.name, 0, &err);
                            return Ok(true);
                        }
                    }
                }
                let failure = reader.failure();
                let mut reader = scan::as_it_arrives(reader);
                if binary.on_binary == OnBinary::Skip && failure.is_some() {
                    // A decompressed file found by a walk (`-z`).
                    match scan::look_ahead(reader, binary) {
                        Ok((_, Some(nul))) => {
                            note_skipped_binary(&input.name, nul);
                            return Ok(false);
                        }
                        Ok((read, None)) => reader = read,
                        Err(err) => {
                            report_read(&input.name, 0, &err);
                            return Ok(true);
                        }
                    }
                }
                let reader = progress.wrap(reader, &input.name);
                let mut sniffing = Sniffing::new(reader, binary);
                let mut decoded = match iriscan::DecodingReader::new(&mut sniffing, *encoding) {
                    Ok(d) => {
                        warn_charset(&input.name, d.charset());
                        d
                    }
                    Err(err) => {
                        report_read(&input.name, 0, &err);
                        return Ok(true);
                    }
                };
                let r = each_line::scan_lines(&mut decoded, opts, |c| {
                    printer.line(input.path_bytes(), &c)
                });
                // Malformed bytes need no warning here: each line that holds
                // one is reported as invalid.
                let failed = match r {
                    Ok(()) => match failure.as_ref().and_then(decompress::Failure::take) {
                        // Decompressed up to a failure (`-z`).
                        Some(f) => read_failed(
                            &input.name,
                            InputError::Read {
                                at: f.at,
                                err: f.into_io(),
                            },
                        )?,
                        None => false,
                    },
                    Err(e) => read_failed(&input.name, e)?,
                };
                drop(decoded);
                warn_binary(&input.name, sniffing.nul());
                printer.end_input()?;
                Ok(failed)
            }
        }
    }
}

impl<W: Write> Job<W> {
    /// The exit status, `failed` telling whether an input was unreadable.
    fn status(&self, failed: bool) -> Status {
        match self {
            Job::Hits(_, p) => Status::of(p.found(), failed),
            // An invalid line is an error: the caller said every line is an
            // IRI reference.
            Job::Lines(_, _, p) => Status::of(p.found(), failed || p.saw_invalid()),
        }
    }
}

/// Reports a read error of `name` (and returns `Ok(true)`), or passes an
/// output error on.
fn read_failed(name: &str, e: InputError) -> io::Result<bool> {
    match e {
        InputError::Read { at, err } => {
            report_read(name, at, &err);
            Ok(true)
        }
        InputError::Output(output) => Err(output),
    }
}

/// The warnings about a scanned input: its charset, malformed bytes, a
/// look of UTF-16 without a byte order mark.
fn warn_scanned(name: &str, summary: &Summary, utf16: Option<Utf16>) {
    warn_replacements(name, &summary.charset, summary.replacements);
    if let Some(utf16) = utf16
        && messages()
    {
        let _ = writeln!(
            progress::message(),
            "iriscan: {name}: warning: NUL bytes between ASCII characters: this looks like UTF-16 without a byte order mark (try --encoding {utf16})"
        );
    }
}

/// Warns (on standard error, without changing the exit status) that an
/// input held malformed byte sequences for its charset: each was replaced
/// by U+FFFD, which ends a candidate, and offsets still point into the
/// input's bytes.
fn warn_replacements(name: &str, charset: &Charset, replacements: u64) {
    warn_charset(name, charset);
    if replacements > 0 && messages() {
        let _ = writeln!(
            progress::message(),
            "iriscan: {name}: warning: {replacements} malformed byte sequence{} for {charset}, replaced",
            if replacements == 1 { "" } else { "s" }
        );
    }
}

/// Announces a charset the user did not choose and may want to correct: a
/// guess of the detector, or a declaration in the document that the bytes
/// contradicted (docs/rules.md §3: no silent garbling).
fn warn_charset(name: &str, charset: &Charset) {
    if !messages() {
        return;
    }
    let mut err = progress::message();
    if let Some(declared) = charset.overridden_declaration() {
        let _ = writeln!(
            err,
            "iriscan: {name}: warning: declared {}, but the bytes are UTF-8: read as UTF-8 (--encoding sets the charset)",
            declared.name()
        );
    } else if charset.is_guess() {
        let _ = writeln!(
            err,
            "iriscan: {name}: warning: charset guessed: {} (--encoding sets the charset)",
            charset.name()
        );
    }
}

/// Notes (on standard error, without changing the exit status) that a
/// binary file found by a walk was skipped (docs/rules.md §4).
fn note_skipped_binary(name: &str, nul: u64) {
    if messages() {
        let _ = writeln!(
            progress::message(),
            "iriscan: {name}: binary file skipped (NUL byte at offset {nul}; -a scans it as text)"
        );
    }
}

/// Warns that an input named on the command line (or scanned with
/// `--binary`) is binary: it was scanned as text all the same.
fn warn_binary(name: &str, nul: Option<u64>) {
    if let Some(nul) = nul
        && messages()
    {
        let _ = writeln!(
            progress::message(),
            "iriscan: {name}: warning: binary file (NUL byte at offset {nul}), scanned as text"
        );
    }
}

/// Reports an input that failed while being read, with where (not a read
/// stopped by a signal: the run ends).
fn report_read(name: &str, at: u64, err: &io::Error) {
    let decompressing = err
        .get_ref()
        .and_then(|e| e.downcast_ref::<decompress::DecompressError>());
    if let Some(err) = decompressing
        && messages()
        && interrupt::received().is_none()
    {
        // Its message says where, in the decompressed bytes.
        let _ = writeln!(progress::message(), "iriscan: {name}: {err}");
    } else if messages() && interrupt::received().is_none() {
        let _ = writeln!(
            progress::message(),
            "iriscan: {name}: read error after byte {at}: {err}"
        );
    }
}

/// Reports an input that cannot be opened, with the OS reason.
fn report_open(name: &str, err: &io::Error) {
    if messages() {
        let _ = writeln!(progress::message(), "iriscan: {name}: cannot open: {err}");
    }
}

/// Reports a path that cannot be read, with the OS reason.
fn report(name: &str, err: &io::Error) {
    if messages() {
        let _ = writeln!(progress::message(), "iriscan: {name}: {err}");
    }
}

/// Whether the run stopped because standard output was closed.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}
