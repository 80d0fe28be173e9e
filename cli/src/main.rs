//! `iriscan`: find IRIs in files and print them (docs/rules.md §4).
//!
//! The program is a pipeline of separate steps, each in its own module:
//!
//! - [`args`]: the command line (clap);
//! - [`walk`]: PATH arguments → inputs (standard input, files, directories
//!   walked as ripgrep walks them, in path order) and reading an input's
//!   bytes;
//! - [`binary`]: whether an input is binary (a NUL byte), and what then;
//! - [`scan`]: an input's bytes → hits (with line and column)
//!   ([`scan::scan_input`], the seam where streaming and parallel readers
//!   plug in); [`each_line`] is the `--each-line` counterpart;
//! - [`output`] and [`line_output`]: records → plain text, JSON Lines
//!   ([`json`]) or counts, with `--unique` in [`unique`].
//!
//! Exit status as grep: 0 if something was found, 1 if nothing, 2 if an
//! error occurred (an error wins over 0). A closed standard output (as in
//! `iriscan big.txt | head`) ends the program quietly with status 0.

mod args;
mod binary;
mod each_line;
mod json;
mod line_output;
mod output;
mod progress;
mod scan;
mod unique;
mod walk;

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::Parser;
use encoding_rs::Encoding;
use iriscan::{Charset, Searcher, Summary};
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
use crate::scan::{InputError, Scanned};
use crate::walk::{Input, Walk};

fn main() -> ExitCode {
    let args = Args::parse();
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
    Found = 0,
    NothingFound = 1,
    Error = 2,
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
        ExitCode::from(s as u8)
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
    let with_path = Walk::several_inputs(&args.paths);
    let out = BufWriter::new(io::stdout().lock());
    let mut job = Job::new(args, encoding, out, with_path);
    let threads = args.threads();
    if threads > 1 {
        // `--threads N` is N threads in all, this one included: it reads
        // the input and, while it waits for the pool, works on the pool's
        // jobs. A pool of N threads beside it would make N + 1 busy threads
        // on N cores, and the one left out waits a time slice per block.
        // (If the pool is already built, it stays as it is.)
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .use_current_thread()
            .build_global();
    }
    let progress = Progress::new();
    let mut failed = false;
    let mut batch: Vec<Input> = Vec::new();
    let mut walk = walk.peekable();
    while let Some(item) = walk.next() {
        let input = match item {
            Ok(input) => input,
            Err(e) => {
                report(&e.name, &e.err);
                failed = true;
                continue;
            }
        };
        // Small files go side by side on the pool (rayon across files);
        // large ones and standard input are streamed, on all threads.
        let small = matches!(&job, Job::Hits(..))
            && threads > 1
            && input.len().is_some_and(|n| n < SMALL_FILE);
        if small {
            batch.push(input);
            if batch.len() < threads * 8 && walk.peek().is_some() {
                continue;
            }
            failed |= job.batch(std::mem::take(&mut batch), &progress, &binary)?;
            continue;
        }
        if !batch.is_empty() {
            failed |= job.batch(std::mem::take(&mut batch), &progress, &binary)?;
        }
        failed |= job.input(&input, &progress, binary.check(input.walked))?;
    }
    if !batch.is_empty() {
        failed |= job.batch(batch, &progress, &binary)?;
    }
    progress.finish();
    Ok(job.status(failed))
}

/// Files smaller than this are scanned whole, several at a time.
const SMALL_FILE: u64 = 8 << 20;

/// What is done with each input: find hits in running text, or check each
/// line as one IRI reference.
enum Job<W: Write> {
    Hits(Searcher, HitPrinter<W>),
    Lines(LineOptions, Option<&'static Encoding>, LinePrinter<W>),
}

impl<W: Write> Job<W> {
    fn new(args: &Args, encoding: Option<&'static Encoding>, out: W, with_path: bool) -> Job<W> {
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
        let mode = match (args.json, args.count) {
            (true, _) => Mode::Json,
            (false, true) => Mode::Count,
            (false, false) => Mode::Plain,
        };
        let settings = Settings {
            mode,
            uri: args.uri,
            invalid: args.invalid,
            unique: args.unique,
            with_path,
            uri_options: args.uri_options(),
            normalize: args.normalization(args.uri),
        };
        // Only JSON prints line and column.
        let searcher = Searcher::new(args.finder())
            .threads(args.threads())
            .encoding(encoding)
            .line_numbers(args.json);
        Job::Hits(searcher, HitPrinter::new(out, settings))
    }

    /// Scans one input and prints what it holds; returns whether the input
    /// failed (reported on standard error), or the output error.
    fn input(
        &mut self,
        input: &Input,
        progress: &Progress,
        binary: BinaryCheck,
    ) -> io::Result<bool> {
        let reader = match input.open() {
            Ok(r) => r,
            Err(e) => {
                report(&input.name, &e);
                return Ok(true);
            }
        };
        match self {
            Job::Hits(searcher, printer) => {
                let renderer = printer.renderer();
                let name = input.name.as_str();
                let r = scan::scan_input(
                    reader,
                    name,
                    progress,
                    searcher,
                    binary,
                    |hit| renderer.render(name, hit),
                    |rendered| printer.emit(rendered),
                );
                let failed = match r {
                    Ok(Scanned::Whole { summary, nul }) => {
                        warn_binary(&input.name, nul);
                        warn_replacements(&input.name, &summary.charset, summary.replacements);
                        false
                    }
                    Ok(Scanned::SkippedBinary { nul }) => {
                        note_skipped_binary(&input.name, nul);
                        return Ok(false);
                    }
                    Err(e) => read_failed(&input.name, e)?,
                };
                printer.end_input(&input.name)?;
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
                let mut sniffing = Sniffing::new(progress.wrap(reader, &input.name), binary);
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
                let r =
                    each_line::scan_lines(&mut decoded, opts, |c| printer.line(&input.name, &c));
                // Malformed bytes need no warning here: each line that holds
                // one is reported as invalid.
                let failed = match r {
                    Ok(()) => false,
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
    ) -> io::Result<bool> {
        let Job::Hits(searcher, printer) = self else {
            unreachable!("only hit scans are batched")
        };
        let one_thread = searcher.clone().threads(1);
        let renderer = printer.renderer();
        type Collected = Result<Scanned<(Vec<Rendered>, Summary)>, (u64, io::Error)>;
        let results: Vec<Collected> = inputs
            .par_iter()
            .map(|input| {
                let reader = input.open().map_err(|e| (0, e))?;
                let name = input.name.as_str();
                let check = binary.check(input.walked);
                scan::collect_input(reader, name, progress, &one_thread, check, |hit| {
                    renderer.render(name, hit)
                })
                .map_err(|e| match e {
                    InputError::Read { at, err } => (at, err),
                    // Collecting writes nothing.
                    InputError::Output(err) => (0, err),
                })
            })
            .collect();
        let mut failed = false;
        for (input, result) in inputs.iter().zip(results) {
            match result {
                Ok(Scanned::SkippedBinary { nul }) => note_skipped_binary(&input.name, nul),
                Ok(Scanned::Whole {
                    summary: (rendered, summary),
                    nul,
                }) => {
                    warn_binary(&input.name, nul);
                    warn_replacements(&input.name, &summary.charset, summary.replacements);
                    for r in rendered {
                        printer.emit(r)?;
                    }
                    printer.end_input(&input.name)?;
                }
                Err((at, err)) => {
                    report_read(&input.name, at, &err);
                    failed = true;
                }
            }
        }
        Ok(failed)
    }

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

/// Warns (on standard error, without changing the exit status) that an
/// input held malformed byte sequences for its charset: each was replaced
/// by U+FFFD, which ends a candidate, and offsets still point into the
/// input's bytes.
fn warn_replacements(name: &str, charset: &Charset, replacements: u64) {
    warn_charset(name, charset);
    if replacements > 0 {
        let _ = writeln!(
            io::stderr().lock(),
            "iriscan: {name}: warning: {replacements} malformed byte sequence{} for {charset}, replaced",
            if replacements == 1 { "" } else { "s" }
        );
    }
}

/// Announces a charset the user did not choose and may want to correct: a
/// guess of the detector, or a declaration in the document that the bytes
/// contradicted (docs/rules.md §3: no silent garbling).
fn warn_charset(name: &str, charset: &Charset) {
    let mut err = io::stderr().lock();
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
    let _ = writeln!(
        io::stderr().lock(),
        "iriscan: {name}: binary file skipped (NUL byte at offset {nul}; -a scans it as text)"
    );
}

/// Warns that an input named on the command line (or scanned with
/// `--binary`) is binary: it was scanned as text all the same.
fn warn_binary(name: &str, nul: Option<u64>) {
    if let Some(nul) = nul {
        let _ = writeln!(
            io::stderr().lock(),
            "iriscan: {name}: warning: binary file (NUL byte at offset {nul}), scanned as text"
        );
    }
}

/// Reports an input that failed while being read, with where.
fn report_read(name: &str, at: u64, err: &io::Error) {
    let _ = writeln!(
        io::stderr().lock(),
        "iriscan: {name}: read error after byte {at}: {err}"
    );
}

/// Reports an input that cannot be read, with its path and the OS reason.
fn report(name: &str, err: &io::Error) {
    let _ = writeln!(io::stderr().lock(), "iriscan: {name}: {err}");
}

/// Whether the run stopped because standard output was closed.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}
