//! The command line: what the user can ask for (docs/rules.md §4).
//!
//! Every option is one line of `--help`; combinations that have no meaning
//! are refused by clap (exit status 2) rather than silently ignored.

use std::ffi::OsString;

use clap::{ArgAction, Parser, ValueEnum};
use encoding_rs::Encoding;
use iriscan::{
    CharsetError, Finder, HitFilter, HostMapping, NormalForm, NormalizationLevel, NormalizeOptions,
    UriOptions, charset_for_label,
};

use crate::binary::BinaryRules;
use crate::structured::FormatChoice;
use crate::walk::WalkOptions;

const ABOUT: &str = "\
Find IRIs (RFC 3987 internationalized links) in text of any language.

Finds `scheme:` links (`https://…`, `urn:…`, `mailto:…`, any registered
scheme), `www.` hosts and e-mail addresses, validates each against the RFC
3987bis grammar, and prints one IRI per line (`PATH:` before it when there are
several inputs). With no PATH, or PATH `-`, reads standard input (shown as
`<stdin>`). Directories are walked as ripgrep walks them: what .gitignore and
.ignore files ignore, hidden files and binary files (a NUL byte) are skipped,
symbolic links are not followed (see the options of the directory walk); the
files found are scanned in path order.

Exit status: 0 if something was found, 1 if nothing, 2 on an error (an
unreadable input, an input that is also the output, an invalid line
with --each-line, a bad argument).";

/// The arguments, as parsed by clap.
#[derive(Parser, Debug)]
#[command(name = "iriscan", version, about = ABOUT)]
pub struct Args {
    /// Files or directories to scan (none or `-`: standard input)
    #[arg(value_name = "PATH")]
    pub paths: Vec<OsString>,

    /// Print the URI (UTF-8 %-encoding, IDNA host) instead of the IRI
    #[arg(long)]
    pub uri: bool,

    /// Print one JSON object per hit per line (offsets, line, column, IRI, URI, kind)
    #[arg(long)]
    pub json: bool,

    /// Print the number of hits per input instead of the hits
    #[arg(short = 'c', long, conflicts_with = "json")]
    pub count: bool,

    /// Print the path of each input with a hit, once, instead of the hits
    #[arg(
        short = 'l',
        long,
        conflicts_with_all = ["json", "count", "each_line"]
    )]
    pub files_with_matches: bool,

    /// Print nothing; exit 0 at the first hit (1 if none)
    #[arg(short = 'q', long, conflicts_with = "each_line")]
    pub quiet: bool,

    /// Stop reading an input after N hits (as printed: valid ones, and
    /// invalid ones with --invalid)
    #[arg(short = 'm', long, value_name = "N", conflicts_with = "each_line")]
    pub max_count: Option<u64>,

    /// Put the line number before each hit (`path:line:iri`)
    #[arg(
        short = 'n',
        long,
        overrides_with = "no_line_number",
        conflicts_with_all = ["json", "count", "files_with_matches", "each_line"]
    )]
    pub line_number: bool,

    /// Do not print line numbers (the default)
    #[arg(short = 'N', long, hide = true)]
    pub no_line_number: bool,

    /// Put the line and the byte column before each hit (`path:line:column:iri`)
    #[arg(
        long,
        conflicts_with_all = ["json", "count", "files_with_matches", "each_line"]
    )]
    pub column: bool,

    /// Print each hit as `path:line:column:iri`, always with the path (for editors)
    #[arg(
        long,
        conflicts_with_all = ["json", "count", "files_with_matches", "each_line"]
    )]
    pub vimgrep: bool,

    /// Print the path with each hit, also for one input
    #[arg(short = 'H', long, overrides_with = "no_filename")]
    pub with_filename: bool,

    /// Never print paths with the hits
    #[arg(short = 'I', long, overrides_with = "with_filename")]
    pub no_filename: bool,

    /// Follow each printed path by a NUL byte instead of `:` (or of the
    /// newline with -l): paths may hold any character
    #[arg(short = '0', long, conflicts_with_all = ["json", "each_line"])]
    pub null: bool,

    /// Print no message about inputs (unreadable, binary, charset warnings) on standard error
    #[arg(short = 's', long)]
    pub no_messages: bool,

    /// After the run, print statistics: hits, inputs, bytes, time
    #[arg(long, conflicts_with_all = ["json", "each_line"])]
    pub stats: bool,

    /// Write each output line at once (the default on a terminal): `tail -f log | iriscan --line-buffered`
    #[arg(long, overrides_with = "block_buffered")]
    pub line_buffered: bool,

    /// Write output in blocks (the default when it is not a terminal)
    #[arg(long, overrides_with = "line_buffered")]
    pub block_buffered: bool,

    /// Print a man page or shell completions, and exit: man, complete-bash, complete-zsh, complete-fish, complete-powershell
    #[arg(
        long,
        value_enum,
        value_name = "WHAT",
        exclusive = true,
        hide_possible_values = true
    )]
    pub generate: Option<GenerateArg>,

    /// Print each distinct IRI (URI with --uri) once, across all inputs
    #[arg(long)]
    pub unique: bool,

    /// Also print rejected candidates, with the reason and its byte offset
    #[arg(long)]
    pub invalid: bool,

    /// Do not find scheme-less `www.` hosts
    #[arg(long)]
    pub no_www: bool,

    /// Do not find e-mail addresses
    #[arg(long)]
    pub no_email: bool,

    /// Print only hits whose IRI matches REGEX anywhere (Rust regex syntax; ^ and $ anchor)
    #[arg(long = "match", value_name = "REGEX", conflicts_with = "each_line")]
    pub match_iri: Option<String>,

    /// Print only hits whose host (a mailto: address's domain) matches REGEX, case ignored
    #[arg(long, value_name = "REGEX", conflicts_with = "each_line")]
    pub host: Option<String>,

    /// Cut IRIs longer than BYTES (512 to 1048576; default 8192), with a warning
    #[arg(long, value_name = "BYTES", value_parser = clap::value_parser!(u64).range(512..=MAX_LEN_LIMIT))]
    pub max_len: Option<u64>,

    /// Map non-ASCII hosts in URIs with `idna` (punycode, the default) or `percent`
    #[arg(
        long,
        value_enum,
        value_name = "HOW",
        default_value_t = HostMappingArg::Idna,
        hide_default_value = true,
        hide_possible_values = true
    )]
    pub host_mapping: HostMappingArg,

    /// Treat every input line as one IRI reference: print its URI, report invalid lines
    /// (a line longer than 1 MiB is reported as invalid)
    #[arg(
        long,
        conflicts_with_all = ["count", "invalid", "no_www", "no_email", "max_len"]
    )]
    pub each_line: bool,

    /// Normalize: simple, syntax or scheme (the default); print and --unique on it
    #[arg(
        long,
        value_enum,
        value_name = "LEVEL",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "scheme",
        hide_possible_values = true
    )]
    pub normalize: Option<LevelArg>,

    /// With --normalize, also apply Unicode NFC
    #[arg(long, requires = "normalize")]
    pub nfc: bool,

    /// With --each-line: print each line as `iri` or `uri` (the default)
    #[arg(
        long,
        value_enum,
        value_name = "FORM",
        requires = "each_line",
        hide_possible_values = true
    )]
    pub to: Option<FormArg>,

    /// With --each-line: resolve references against this absolute IRI; for HTML pages: the
    /// page's address, which its relative links resolve against
    #[arg(long, value_name = "IRI")]
    pub base: Option<String>,

    /// What the inputs are: auto (the default: told by each input's first bytes and name),
    /// text, mail (a message or an mbox), html, warc (WARC or WET, plain or gzip)
    #[arg(
        long,
        value_name = "FORMAT",
        default_value = "auto",
        hide_default_value = true,
        conflicts_with = "each_line"
    )]
    pub format: FormatChoice,

    /// Input charset: a WHATWG label (sjis, latin1, utf-16le, …) or auto (the default)
    #[arg(
        short = 'E',
        long,
        value_name = "LABEL",
        default_value = "auto",
        hide_default_value = true
    )]
    pub encoding: String,

    /// Search compressed inputs: gzip (all members), bzip2, xz and zstd, told by their first
    /// bytes, are decompressed as read; offsets, lines and --stats are of the decompressed bytes
    #[arg(short = 'z', long)]
    pub search_zip: bool,

    /// Threads to scan with (default: all cores); the output does not depend on it
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,

    // The directory walk (ripgrep's)
    /// Walk hidden files and directories (names starting with `.`) too
    #[arg(long, help_heading = WALK)]
    pub hidden: bool,

    /// Do not skip what .gitignore, .ignore and git's exclude files ignore
    #[arg(long, help_heading = WALK)]
    pub no_ignore: bool,

    /// -u: --no-ignore; -uu: and --hidden; -uuu: and --binary
    #[arg(short = 'u', long = "unrestricted", action = ArgAction::Count, help_heading = WALK)]
    pub unrestricted: u8,

    /// Walk only files matching GLOB, or not matching `!GLOB` (repeatable)
    #[arg(short = 'g', long = "glob", value_name = "GLOB", help_heading = WALK)]
    pub globs: Vec<String>,

    /// Descend at most NUM directories below a PATH (1: its own entries)
    #[arg(long, value_name = "NUM", help_heading = WALK)]
    pub max_depth: Option<usize>,

    /// Follow symbolic links inside directories
    #[arg(short = 'L', long, help_heading = WALK)]
    pub follow: bool,

    /// Skip walked files larger than NUM bytes (suffix K, M or G: KiB, MiB, GiB)
    #[arg(long, value_name = "NUM+SUFFIX?", value_parser = parse_size, help_heading = WALK)]
    pub max_filesize: Option<u64>,

    /// Scan binary files found by walking a directory too (with a warning)
    #[arg(long, help_heading = WALK)]
    pub binary: bool,

    /// Scan binary files (a NUL byte in the first 64 KiB) as text, silently
    #[arg(short = 'a', long, help_heading = WALK)]
    pub text: bool,

    // Warnings (issue 16)
    /// Drop hits with any of these warnings (codes: leiri, truncated, idna,
    /// bidi, mixed-script, confusable, userinfo, overlong, scheme, invisible)
    #[arg(long, value_name = "CODE,...", help_heading = "Warnings",
          value_parser = |s: &str| s.parse::<iriscan::Warnings>().map_err(|e| e.to_string()))]
    pub deny: Option<iriscan::Warnings>,

    /// Print no warnings: none in JSON, no truncation notice on standard error
    #[arg(long, help_heading = "Warnings")]
    pub no_warn: bool,
}

/// The heading of the options of the directory walk in `--help`.
const WALK: &str = "Directory walk";

/// A size as `--max-filesize` takes it: a number of bytes, or of KiB, MiB
/// or GiB with a `K`, `M` or `G` suffix (as ripgrep).
fn parse_size(s: &str) -> Result<u64, String> {
    let (digits, shift) = match s.as_bytes().last() {
        Some(b'K' | b'k') => (&s[..s.len() - 1], 10),
        Some(b'M' | b'm') => (&s[..s.len() - 1], 20),
        Some(b'G' | b'g') => (&s[..s.len() - 1], 30),
        _ => (s, 0),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("not a size: {s:?} (a number, with K, M or G)"))?;
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("too large: {s:?}"))
}

/// The largest `--max-len`: 1 MiB (what a candidate may hold in memory).
pub const MAX_LEN_LIMIT: u64 = 1 << 20;

/// The values of `--generate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GenerateArg {
    /// A man page (roff)
    Man,
    /// Completions for bash
    CompleteBash,
    /// Completions for zsh
    CompleteZsh,
    /// Completions for fish
    CompleteFish,
    /// Completions for PowerShell
    CompletePowershell,
}

/// The values of `--normalize`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LevelArg {
    /// The string as it is
    Simple,
    /// Case, percent-encoding and dot segments (RFC 3986 §6.2.2)
    Syntax,
    /// Also default ports, empty paths, IDN hosts for http, https, ws, wss, ftp
    Scheme,
}

/// The values of `--to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormArg {
    /// The IRI (percent-encoded UTF-8 decoded where RFC 3987bis §4 allows)
    Iri,
    /// The URI (RFC 3987bis §3)
    Uri,
}

/// The values of `--host-mapping`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HostMappingArg {
    /// UTS #46 ToASCII (RFC 3987bis §3.4.2)
    Idna,
    /// Percent-encode the UTF-8 of the host (RFC 3987bis §3.4.1)
    Percent,
}

impl Args {
    /// The finder these arguments ask for.
    pub fn finder(&self) -> Finder {
        let mut f = Finder::new().www(!self.no_www).email(!self.no_email);
        if let Some(n) = self.max_len {
            f = f.max_len(usize::try_from(n).unwrap_or(usize::MAX));
        }
        f
    }

    /// The filter `--match` and `--host` ask for, or an error naming the
    /// option and the pattern.
    pub fn hit_filter(&self) -> Result<HitFilter, String> {
        let mut filter = HitFilter::new();
        if let Some(re) = &self.match_iri {
            filter = filter
                .iri_matching(re)
                .map_err(|e| format!("--match: {e}"))?;
        }
        if let Some(re) = &self.host {
            filter = filter
                .host_matching(re)
                .map_err(|e| format!("--host: {e}"))?;
        }
        Ok(filter)
    }

    /// The charset `--encoding` names (`None` for `auto`), or an error
    /// naming the label.
    pub fn encoding(&self) -> Result<Option<&'static Encoding>, CharsetError> {
        if self.encoding.eq_ignore_ascii_case("auto") {
            Ok(None)
        } else {
            charset_for_label(&self.encoding).map(Some)
        }
    }

    /// The normalization `--normalize` asks for, in IRI or URI form.
    pub fn normalization(&self, uri: bool) -> Option<NormalizeOptions> {
        let level = match self.normalize? {
            LevelArg::Simple => NormalizationLevel::Simple,
            LevelArg::Syntax => NormalizationLevel::Syntax,
            LevelArg::Scheme => NormalizationLevel::Scheme,
        };
        let form = if uri {
            NormalForm::Uri
        } else {
            NormalForm::Iri
        };
        Some(
            NormalizeOptions::new()
                .level(level)
                .form(form)
                .nfc(self.nfc),
        )
    }

    /// Whether `--each-line` prints URIs (the default) rather than IRIs.
    pub fn to_uri(&self) -> bool {
        self.to != Some(FormArg::Iri)
    }

    /// Whether outputs name their input: `-H`, `-I`, `--vimgrep`, or else
    /// `several` (more than one input).
    pub fn with_path(&self, several: bool) -> bool {
        if self.vimgrep || self.with_filename {
            true
        } else if self.no_filename {
            false
        } else {
            several
        }
    }

    /// Whether plain output needs line numbers.
    pub fn line_numbers(&self) -> bool {
        (self.line_number && !self.no_line_number) || self.column || self.vimgrep
    }

    /// The number of threads to scan with.
    pub fn threads(&self) -> usize {
        match self.threads {
            Some(n) => usize::try_from(n).unwrap_or(1),
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }

    /// How directories are walked.
    pub fn walk_options(&self) -> WalkOptions {
        WalkOptions {
            hidden: self.hidden || self.unrestricted >= 2,
            no_ignore: self.no_ignore || self.unrestricted >= 1,
            globs: self.globs.clone(),
            max_depth: self.max_depth,
            follow: self.follow,
            max_filesize: self.max_filesize,
            threads: self.threads(),
            // What prints at most one line per input cannot feed itself.
            output: if self.count
                || self.files_with_matches
                || self.quiet
                || self.max_count.is_some_and(|n| n <= 1)
            {
                None
            } else {
                crate::walk::output_file()
            },
        }
    }

    /// What is done with binary inputs (`encoding`: the charset given).
    pub fn binary_rules(&self, encoding: Option<&'static Encoding>) -> BinaryRules {
        BinaryRules {
            text: self.text,
            walked_too: self.binary || self.unrestricted >= 3,
            encoding,
        }
    }

    /// The IRI → URI mapping options these arguments ask for.
    pub fn uri_options(&self) -> UriOptions {
        UriOptions::new().host_mapping(match self.host_mapping {
            HostMappingArg::Idna => HostMapping::Idna,
            HostMappingArg::Percent => HostMapping::PercentEncode,
        })
    }
}

/// Refuses `--normalize LEVEL` written with a space: the level is an
/// optional value, given as `--normalize=LEVEL`, so clap takes `LEVEL` for
/// a path; when no such path exists, that was surely not meant (`argv`:
/// the program's arguments, its name first).
pub fn check_normalize_value(
    argv: impl IntoIterator<Item = OsString>,
    args: &Args,
) -> Result<(), String> {
    if args.normalize.is_none() {
        return Ok(());
    }
    let argv: Vec<OsString> = argv.into_iter().skip(1).collect();
    for pair in argv.windows(2) {
        if pair[0] == "--" {
            break;
        }
        let next = &pair[1];
        if pair[0] == "--normalize"
            && next != "-"
            && !next.to_string_lossy().starts_with('-')
            && !std::path::Path::new(next).exists()
        {
            return Err(format!(
                "--normalize takes its level after `=` (--normalize=simple, =syntax or =scheme); `{}` is taken as a path, and there is no such file",
                next.to_string_lossy()
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_take_k_m_g_suffixes() {
        assert_eq!(parse_size("0"), Ok(0));
        assert_eq!(parse_size("1500"), Ok(1500));
        assert_eq!(parse_size("2K"), Ok(2048));
        assert_eq!(parse_size("3M"), Ok(3 << 20));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        assert_eq!(parse_size("1g"), Ok(1 << 30));
        for bad in ["", "K", "1.5M", "-1", "1T", "99999999999999999999G"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }
}
