//! The formats `scan_bytes` reads, by the names of the command line's
//! `--format`, and the choice `auto` makes from the bytes.

use std::str::FromStr;

/// How an input is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Chosen from the bytes ([`Format::or_sniffed`]).
    Auto,
    Text,
    Mail,
    Html,
    Warc,
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Format, String> {
        match s {
            "auto" => Ok(Format::Auto),
            "text" => Ok(Format::Text),
            "mail" => Ok(Format::Mail),
            "html" => Ok(Format::Html),
            "warc" => Ok(Format::Warc),
            other => Err(format!(
                "format: {other:?} is not auto, text, mail, html or warc"
            )),
        }
    }
}

impl Format {
    /// The format, `auto` resolved from the first bytes of `data`: a WARC
    /// record (`WARC/`, or a gzip member, as crawl archives come), else
    /// text (the command line's default).
    pub fn or_sniffed(self, data: &[u8]) -> Format {
        match self {
            Format::Auto if data.starts_with(b"WARC/") || data.starts_with(&[0x1f, 0x8b]) => {
                Format::Warc
            }
            Format::Auto => Format::Text,
            given => given,
        }
    }
}
