//! `iriscan`: find IRIs in files and print them (PRODUCT.md §4).
//!
//! The program is a pipeline of separate steps, each in its own module:
//!
//! - [`args`]: the command line (clap);
//! - [`walk`]: PATH arguments → inputs (standard input, files, directories
//!   walked in name order) and reading an input's bytes;
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
mod each_line;
mod json;
mod line_output;
mod output;
mod scan;
mod unique;
mod walk;

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::Parser;
use iriscan::{Finder, UriOptions};

use crate::args::Args;
use crate::line_output::LinePrinter;
use crate::output::{HitPrinter, Mode, Settings};
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
    let with_path = Walk::several_inputs(&args.paths);
    let out = BufWriter::new(io::stdout().lock());
    let mut job = Job::new(args, out, with_path);
    let mut failed = false;
    for item in Walk::new(&args.paths) {
        let input = match item {
            Ok(input) => input,
            Err(e) => {
                report(&e.name, &e.err);
                failed = true;
                continue;
            }
        };
        let bytes = match input.read() {
            Ok(bytes) => bytes,
            Err(e) => {
                report(&input.name, &e);
                failed = true;
                continue;
            }
        };
        job.input(&input, &bytes)?;
    }
    Ok(job.status(failed))
}

/// What is done with each input: find hits in running text, or check each
/// line as one IRI reference.
enum Job<W: Write> {
    Hits(Finder, HitPrinter<W>),
    Lines(UriOptions, LinePrinter<W>),
}

impl<W: Write> Job<W> {
    fn new(args: &Args, out: W, with_path: bool) -> Job<W> {
        if args.each_line {
            return Job::Lines(
                args.uri_options(),
                LinePrinter::new(out, args.json, with_path),
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
        };
        Job::Hits(args.finder(), HitPrinter::new(out, settings))
    }

    /// Scans one input and prints what it holds.
    fn input(&mut self, input: &Input, bytes: &[u8]) -> io::Result<()> {
        match self {
            Job::Hits(finder, printer) => {
                scan::scan_input(bytes, finder, |hit| printer.hit(&input.name, &hit))?;
                printer.end_input(&input.name)
            }
            Job::Lines(opts, printer) => {
                each_line::scan_lines(bytes, opts, |c| printer.line(&input.name, &c))?;
                printer.end_input()
            }
        }
    }

    /// The exit status, `failed` telling whether an input was unreadable.
    fn status(&self, failed: bool) -> Status {
        match self {
            Job::Hits(_, p) => Status::of(p.found(), failed),
            // An invalid line is an error: the caller said every line is an
            // IRI reference.
            Job::Lines(_, p) => Status::of(p.found(), failed || p.saw_invalid()),
        }
    }
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
