//! The library tour of README.md § Library, as a program that runs: `cargo
//! test` builds it and `tests/readme_library.rs` checks that the README
//! shows exactly the code between the markers below.
//!
//! `cargo run --example library_tour`

use std::error::Error;

fn main() -> Result<(), Box<dyn Error>> {
    // README: begin
    use iriscan::{
        Finder, Hit, Iri, NormalizeOptions, PushScanner, Searcher, UriOptions, normalize,
    };

    // Cheap spans over a &str: range and kind; the IRI, its validation and
    // its URI only when asked (a mail client, a chat app).
    let text = "詳細は https://ja.wikipedia.org/wiki/東京都 をご覧ください。";
    for span in Finder::new().spans(text).filter(|s| s.is_valid()) {
        let uri = iriscan::to_uri(&span.iri(), &UriOptions::new())
            .uri
            .into_owned();
        println!("{:?} {} {uri}", span.range(), span.as_str());
    }

    // Any reader, any charset, bounded memory, all cores; offsets into the
    // original bytes, lines and columns. A sink is a closure, or a type
    // implementing `Sink` (its own error type, begin and finish hooks).
    let file = std::fs::File::open("corpus/charsets/ja.shift_jis.txt")?;
    let summary = Searcher::new(Finder::new())
        .threads(2)
        .scan_file(&file, |hit: &Hit| {
            println!("{}:{} {}", hit.line(), hit.column(), hit.iri());
            Ok(true)
        })?;
    println!("charset: {}", summary.charset);

    // Chunks as they arrive from the network (IMAP, JMAP): the hits each
    // chunk decides, the same as one scan of the whole.
    let mut push = PushScanner::new(&Searcher::new(Finder::new()));
    for chunk in [
        &b"see https://exa"[..],
        b"mple.org/a and www.exa",
        b"mple.com.",
    ] {
        for hit in push.push(chunk) {
            println!("{}", hit.iri());
        }
    }
    for hit in push.finish() {
        println!("{}", hit.iri());
    }

    // A parsed IRI: the string with its components, parsed once.
    let iri = Iri::parse("https://user@例え.テスト:8443/パス?q=1#top")?;
    assert_eq!(
        (iri.host(), iri.port(), iri.path()),
        (Some("例え.テスト"), Some("8443"), "/パス")
    );

    // Normal forms for deduplication.
    let key = normalize("HTTP://Example.COM:80/a/../b", &NormalizeOptions::new())?;
    assert_eq!(key, "http://example.com:80/b");
    // README: end
    Ok(())
}
