//! Whole-process baseline for `examples/compare.rs`: counts the links the
//! `linkify` crate finds in a file (URLs with or without a scheme — the
//! mode in which it finds `www.` hosts, as iriscan does — and e-mail
//! addresses). linkify needs the whole text as one `&str`.

fn main() {
    let path = std::env::args().nth(1).expect("usage: linkify_count FILE");
    let bytes = std::fs::read(&path).expect("readable file");
    let text = String::from_utf8_lossy(&bytes);
    let mut finder = linkify::LinkFinder::new();
    finder.kinds(&[linkify::LinkKind::Url, linkify::LinkKind::Email]);
    finder.url_must_have_scheme(std::env::args().nth(2).as_deref() == Some("--scheme-only"));
    println!("{}", finder.links(&text).count());
}
