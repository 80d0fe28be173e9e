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
use rayon::prelude::*;

/// glibc's allocator serializes threads that allocate at once (rendering
/// hits on the pool: `__lll_lock_wait_private` was a third of the time of
/// `--json --threads 2`); mimalloc keeps a heap per thread.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use crate::args::Args;
use crate::binary::{BinaryCheck, BinaryRules, OnBinary, Sniffing};
use crate::each_line::LineOptions;
use crate::line_output::LinePrinter;
use crate::output::{HitPrinter, Mode, Rendered, Settings};
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
    let mut job = Run::new(
        Job::new(args, encoding, out, with_path, filter),
        incremental,
        args.format,
        structured,
    );
    job.decompress = args.search_zip;
    let mut stats = Stats::start();
    let threads = args.threads();
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
    let mut failed = false;
    let mut batch: Vec<Input> = Vec::new();
    let mut walk = walk.peekable();
    while let Some(item) = walk.next() {
        if job.done() || interrupt::received().is_some() {
            break;
        }
        let input = match item {
            Ok(input) => input,
            Err(e) => {
                // The inputs before it first: the message comes at the
                // input's place in the order (on a terminal, after their
                // hits). Whether they failed does not matter: this did.
                if !batch.is_empty() {
                    job.batch(std::mem::take(&mut batch), &progress, &binary, &mut stats)?;
                }
                report(&e.name, &e.err);
                failed = true;
                continue;
            }
        };
        // Small files go side by side on the pool (rayon across files);
        // large ones and standard input are streamed, on all threads.
        // (Not a FIFO or a device: those are read as they arrive. Nor a
        // compressed file: its size says nothing of what it holds.)
        let small = matches!(&job.job, Job::Hits(..))
            && threads > 1
            && input.len().is_some_and(|n| n < SMALL_FILE)
            && !(args.search_zip && input.compressed())
            && structured::is_text_file(args.format, &input);
        if small {
            batch.push(input);
            if batch.len() < threads * 8 && walk.peek().is_some() {
                continue;
            }
            failed |= job.batch(std::mem::take(&mut batch), &progress, &binary, &mut stats)?;
            continue;
        }
        if !batch.is_empty() {
            failed |= job.batch(std::mem::take(&mut batch), &progress, &binary, &mut stats)?;
        }
        let check = binary.check(input.walked);
        failed |= job.input(&input, &progress, check, &mut stats)?;
    }
    if !batch.is_empty() && !job.done() && interrupt::received().is_none() {
        failed |= job.batch(batch, &progress, &binary, &mut stats)?;
    }
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

/// Files smaller than this are scanned whole, several at a time.
const SMALL_FILE: u64 = 8 << 20;

/// Compressed files smaller than this are scanned on one thread.
const SMALL_COMPRESSED: u64 = 64 << 10;

/// What is done with each input: find hits in running text, or check each
/// line as one IRI reference.
enum Job<W: Write> {
    Hits(Searcher, HitPrinter<W>),
    Lines(LineOptions, Option<&'static Encoding>, LinePrinter<W>),
}

/// The job of a run, and how it reads input that arrives as it is written.
struct Run<W: Write> {
    job: Job<W>,
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
            .threads(args.threads())
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
            incremental,
            decompress: false,
            format,
            structured,
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
        let reader = match input.open(self.decompress) {
            Ok(r) => r,
            Err(e) => {
                report_open(&input.name, &e);
                return Ok(true);
            }
        };
        let incremental = self.incremental;
        match &mut self.job {
            Job::Hits(searcher, printer) => {
                let renderer = printer.renderer();
                let name = input.name.as_str();
                let path = input.path_bytes();
                let (format, told, reader) =
                    match structured::choose(self.format, input.file_name(), reader) {
                        Ok(chosen) => chosen,
                        Err(err) => {
                            report_read(name, 0, &err);
                            return Ok(true);
                        }
                    };
                if messages() {
                    structured::note_guess(name, format, told);
                }
                if format != InputFormat::Text {
                    let scanned = structured::scan_structured(
                        format,
                        reader,
                        input,
                        progress,
                        &self.structured,
                        &renderer,
                        printer,
                    )?;
                    stats.inputs += 1;
                    stats.bytes += scanned.bytes;
                    printer.end_input(path)?;
                    return Ok(scanned.failed);
                }
                // A small compressed file (not batched: its size says
                // nothing of what it holds) on one thread: the pipeline's
                // setup would cost more than it gives.
                let one_thread;
                let searcher = if matches!(reader, walk::Reader::Decompressed(_))
                    && input.len().is_some_and(|n| n < SMALL_COMPRESSED)
                {
                    one_thread = searcher.clone().threads(1);
                    &one_thread
                } else {
                    &*searcher
                };
                let mode = ReadMode {
                    binary,
                    incremental,
                };
                let r = if printer.counts_only() {
                    let mut counts = iriscan::Counts::default();
                    let r = scan::count_input(reader, name, progress, searcher, mode, &mut counts);
                    printer.add_counts(&counts);
                    r
                } else {
                    scan::scan_input(
                        reader,
                        name,
                        progress,
                        searcher,
                        mode,
                        |hit| renderer.render(path, hit),
                        |rendered| printer.emit(path, rendered),
                    )
                };
                let failed = match r {
                    Ok(Scanned::Whole {
                        summary,
                        nul,
                        utf16,
                    }) => {
                        scanned_whole(&input.name, stats, &summary, nul, utf16);
                        false
                    }
                    Ok(Scanned::SkippedBinary { nul }) => {
                        note_skipped_binary(&input.name, nul);
                        return Ok(false);
                    }
                    Err(e) => read_failed(&input.name, e)?,
                };
                printer.end_input(path)?;
                Ok(failed)
            }
            Job::Lines(opts, encoding, printer) => {
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

    /// Scans small files side by side on the pool, then prints them in
    /// order (each file's hits are held until its turn, so nothing
    /// interleaves); returns whether one failed.
    fn batch(
        &mut self,
        inputs: Vec<Input>,
        progress: &Progress,
        binary: &BinaryRules,
        stats: &mut Stats,
    ) -> io::Result<bool> {
        let Job::Hits(searcher, printer) = &mut self.job else {
            unreachable!("only hit scans are batched")
        };
        let one_thread = searcher.clone().threads(1);
        let decompress = self.decompress;
        let renderer = printer.renderer();
        let counts_only = printer.counts_only();
        /// Why a file of the batch failed: it could not be opened, or read.
        enum Failed {
            Open(io::Error),
            Read(u64, io::Error),
        }
        type Collected = Result<Scanned<(scan::Collected<Rendered>, Summary)>, Failed>;
        let results: Vec<Collected> = inputs
            .par_iter()
            .map(|input| {
                let reader = input.open(decompress).map_err(Failed::Open)?;
                let name = input.name.as_str();
                let check = binary.check(input.walked);
                if counts_only {
                    scan::collect_counts(reader, name, progress, &one_thread, check)
                } else {
                    scan::collect_input(reader, name, progress, &one_thread, check, |hit| {
                        renderer.render(input.path_bytes(), hit)
                    })
                }
                .map_err(|e| match e {
                    InputError::Read { at, err } => Failed::Read(at, err),
                    // Collecting writes nothing.
                    InputError::Output(err) => Failed::Read(0, err),
                })
            })
            .collect();
        let mut failed = false;
        // Printed in full also after a signal: they have been read.
        for (input, result) in inputs.iter().zip(results) {
            if printer.done() {
                break;
            }
            match result {
                Ok(Scanned::SkippedBinary { nul }) => note_skipped_binary(&input.name, nul),
                Ok(Scanned::Whole {
                    summary: (hits, summary),
                    nul,
                    utf16,
                }) => {
                    scanned_whole(&input.name, stats, &summary, nul, utf16);
                    printer.print_collected(input.path_bytes(), hits)?;
                }
                Err(Failed::Open(err)) => {
                    report_open(&input.name, &err);
                    failed = true;
                }
                Err(Failed::Read(at, err)) => {
                    report_read(&input.name, at, &err);
                    failed = true;
                }
            }
        }
        Ok(failed)
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

/// An input scanned to its end, one at a time or in a batch: counted for
/// `--stats`, and its warnings (binary, charset, malformed bytes, UTF-16).
fn scanned_whole(
    name: &str,
    stats: &mut Stats,
    summary: &Summary,
    nul: Option<u64>,
    utf16: Option<Utf16>,
) {
    stats.inputs += 1;
    stats.bytes += summary.bytes;
    warn_binary(name, nul);
    warn_scanned(name, summary, utf16);
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
