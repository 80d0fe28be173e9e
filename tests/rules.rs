//! The detection rules of docs/rules.md §1, one test each, written in the
//! marker style of robinst/linkify: `|` marks the spans we expect
//! (`"(|http://a.b/|)"`). Only valid hits count here; `invalid` tests look
//! at the rejected candidates.

use iriscan::{Finder, Kind};

/// The valid hits of `text` as their span texts.
fn spans_with(finder: Finder, text: &str) -> Vec<String> {
    finder
        .find_iter(text.as_bytes())
        .filter(|h| h.is_valid())
        .map(|h| {
            assert_eq!(
                &text[h.range()],
                h.text(),
                "offsets slice the input to the text"
            );
            h.text().to_string()
        })
        .collect()
}

#[track_caller]
fn check_with(finder: Finder, marked: &str) {
    let text = marked.replace('|', "");
    let expected: Vec<&str> = marked.split('|').skip(1).step_by(2).collect();
    assert_eq!(spans_with(finder, &text), expected, "in {text:?}");
}

/// Checks a marked text with the default finder.
#[track_caller]
fn check(marked: &str) {
    check_with(Finder::new(), marked);
}

/// Checks that `text` yields no valid hit.
#[track_caller]
fn none(text: &str) {
    assert_eq!(
        spans_with(Finder::new(), text),
        Vec::<String>::new(),
        "in {text:?}"
    );
}

fn iri_of(text: &str) -> Vec<String> {
    Finder::new()
        .find_iter(text.as_bytes())
        .filter(|h| h.is_valid())
        .map(|h| h.iri().to_string())
        .collect()
}

// §1.1 Where a candidate starts: schemes.

#[test]
fn scheme_with_double_slash_any_scheme() {
    check("|http://example.com|");
    check("|HTTPS://EXAMPLE.COM/A|");
    check("|foo://bar|");
    check("|a://foo|");
    check("|svn+ssh://host/repo|");
    check("|git+https://github.com/x/y.git|");
}

#[test]
fn scheme_longest_run_starting_with_a_letter() {
    check("+|http://www.google.com/bot.html|");
    check("(compatible; Googlebot/2.1; +|http://www.google.com/bot.html|)");
    check("...|http://example.com|");
    check("1.|http://example.com|");
}

#[test]
fn scheme_glued_to_letter_or_digit_is_not_a_link() {
    none("22file://foo");
    none("/path/to/22file://foo");
}

/// §1.1: a `_` glues the scheme to an identifier only after a letter or
/// digit; a word-initial `_` is Markdown or Slack emphasis.
#[test]
fn underscore_before_a_scheme() {
    none("app_scheme://x.example");
    none("x_1_https://x.example/a");
    none("9_http://x.example/");
    check("see _|https://example.org/docs_| for more");
    check("_|http://example.org/|");
    check("(_|https://example.org/a|)");
}

#[test]
fn scheme_after_non_ascii_starts_at_the_letter() {
    check("詳細は|http://example.com/|");
    check("Подробнее:|https://example.ru/статья|");
}

#[test]
fn registered_schemes_without_slashes() {
    check("|urn:isbn:0451450523|");
    check("|mailto:a@b.example|");
    check("call |tel:+1-201-555-0123|");
    check("|news:comp.lang.rust|");
    check("|about:blank|");
    check("|data:text/plain,hello|");
}

#[test]
fn unregistered_schemes_need_slashes() {
    none("foo:bar");
    none("note:x");
    none("key:value");
}

#[test]
fn registered_scheme_needs_an_untrimmed_character_after_the_colon() {
    none("mailto: someone");
    none("urn:");
    none("news:.");
    none("about:, said");
}

#[test]
fn one_letter_scheme_only_with_double_slash() {
    none(r"C:\Windows\System32");
    none("C:/Windows/System32");
    check("|a://foo|");
}

#[test]
fn dns_schemes_only_with_double_slash() {
    none("http:/x");
    none("https:example.com");
    none("ftp:x");
    none("ws:x wss:y");
}

#[test]
fn prose_with_colons_is_never_a_link() {
    none("Note: x");
    none("Re: your mail");
    none("12:30");
    none("std::vec::Vec");
    none("key:value");
    none("localhost:8080");
    none("a:b:c");
}

#[test]
fn bare_scheme_glued_to_non_ascii_prose_is_not_a_link() {
    none("ldap://でなければなりません");
    check("|http://intranet/|");
    check("|http://例え.テスト|");
}

#[test]
fn ascii_host_glued_to_cjk_prose_ends_at_the_switch() {
    check("|http://www.scriptics.com|参照");
    check("|www.naver.com|에서");
    check("|http://abc例え.jp/|");
}

#[test]
fn path_glued_to_prose_stays() {
    check("|http://example.org/或者|");
}

#[test]
fn implausible_dns_hosts_are_not_links() {
    none("http://#");
    none("http://.a.com");
    none("http://-a.com");
    none("http://a.com_");
    none("http://a..com");
    none("http:///path");
    none(&format!("http://{}.com", "a".repeat(64)));
    check("|http://_dmarc.example.com|");
    check("|http://192.168.0.1:8080/|");
    check("|http://[::1]:8080/x|");
    check("|file:///etc/passwd|");
}

/// A `,` ends a DNS host (a list of sites); any other character no DNS
/// name holds makes the host implausible, and the candidate is no link —
/// it is never cut back to the host before it (§1.6).
#[test]
fn dns_host_ends_at_a_comma() {
    check("|http://a.example|,|http://b.example|");
    check("|http://a.example|,b.example");
    check("|www.a.example|,|www.b.example|");
    check("|http://a.example|,|http://b.example:8080/|");
    check("|http://user:pa$$@a.example/|");
    check("|http://a.example:8080|'");
    check("|foo://a'b/|");
    none("http://example.org'/>");
    check("https://a.com'|https://b.com|");
    none("www.a!b.example www.a*b.example/x");
    check("'|http://example.org|'/>");
}

// §1.1 www.

#[test]
fn www_hosts() {
    check("|www.example.com|");
    check("|WWW.EXAMPLE.COM/path|");
    check("|www.example.com:8080/x?y#z|");
    assert_eq!(iri_of("www.example.com"), ["http://www.example.com"]);
    none("www.example");
    none("awww.example.com");
    none("1www.example.com");
    none(".www.example.com x-www.example.com y_www.example.com");
    check("见|www.example.cn|");
}

#[test]
fn www_can_be_switched_off() {
    check_with(
        Finder::new().www(false),
        "www.example.com and |http://www.example.com|",
    );
}

// §1.1 E-mail.

#[test]
fn email_addresses() {
    check("|john.doe+tag@example.com|");
    check("`|addr@example.com|`");
    check("F=|addr@example.com|");
    check("'|addr@example.com|'");
    check("|müller@exämple.de|");
    assert_eq!(iri_of("a@example.com"), ["mailto:a@example.com"]);
    none("?@24.79.92.194");
    none("a@localhost");
    none("@example.com");
    none("a@b.1com");
    none("a.b-c_d@a.b_");
}

/// `user@host:path` is scp's (and git's) location, not an address; a colon
/// of prose after an address is not.
#[test]
fn scp_locations_are_not_email_addresses() {
    none("git clone git@github.com:rust-lang/rust.git");
    none("scp notes.txt me@example.org:~/backup/");
    none("rsync -a me@example.org:/var/www/ .");
    none("ssh to me@example.org:8022 first");
    none("git@gitlab.example.com:_group/x.git");
    check("write to |a@example.com|: thanks");
    check("mail |a@example.com|:)");
    check("(|a@example.com|:");
    // With a scheme it is a URI, found as such.
    check("|ssh://git@github.com:22/rust-lang/rust.git|");
}

/// A registered scheme's IRI may start with trimmed punctuation when more
/// follows (`magnet:?xt=…`, docs/rules.md §1.1); a second colon or a `*`
/// does not start one.
#[test]
fn registered_schemes_after_punctuation() {
    check("get |magnet:?xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a&dn=x.iso| now");
    check("text |sms:?body=hi| or |data:,Hello%2C%20World|");
    // aria2 1.36.0 (Debian 12), man/man1/aria2c.1 and its pt and ru translations
    check("$ aria2c \"|magnet:?xt=urn:btih:248D0A1CD08284299DE78D5C1ED359BB46717D8C&dn=aria2|\"");
    // Names in code and certificates (gcc and Perl changelogs, a nodejs
    // copyright file, Debian 12): registered schemes, no links.
    none("use File::Spec and query::dump");
    none("DNS:*.nodejs.org");
    none("see urn:. and urn:? and (info:)");
}

/// Lines of Debian's package documentation (`/usr/share/doc`, Debian 12)
/// in which iriscan used to report an address: the only changes the scp
/// rule made on 213 MB of such documentation and crate READMEs, each
/// checked by eye.
#[test]
fn scp_locations_in_real_text() {
    // fakeroot, README.saving
    none("# rsync -a root@important.example.com:/ .");
    // pixman, changelog
    none("    Merge branch 'master' of sandmann@git.freedesktop.org:/git/pixman");
    // util-linux, howto-pull-request.txt
    none("git remote add yourgit git@github.com:yourlogin/util-linux.git");
    // coreutils, changelog.Debian
    none("    fedora core (:pserver:anonymous@cvs.fedora.redhat.com:/cvs/dist,");
    // groff-base, changelog
    none("\t$ git clone git@github.com:RUNOFF/groffer.git");
    // lsof, 00QUICKSTART (lsof's own `-i@host:service` syntax)
    none("  $ lsof -iTCP@aaa.bbb.ccc:ftp-data");
    none("\t\t    $ lsof -i@lsof.itap.purdue.edu:sendmail");
}

#[test]
fn email_not_inside_an_iri() {
    check("|http://user@example.com/|");
    check("|mailto:a@example.com|");
}

#[test]
fn email_can_be_switched_off() {
    check_with(
        Finder::new().email(false),
        "a@example.com |mailto:a@example.com|",
    );
}

#[test]
fn email_percent_is_encoded_in_its_mailto_iri() {
    assert_eq!(
        iri_of("user%host@example.com"),
        ["mailto:user%25host@example.com"]
    );
    assert_eq!(
        iri_of("a%%b%c@example.com"),
        ["mailto:a%25%25b%25c@example.com"]
    );
}

#[test]
fn email_glued_to_cjk_prose() {
    check("連絡先は|info@example.jp|まで");
}

// §1.2 Where a candidate ends.

#[test]
fn ascii_delimiters_end() {
    check("|http://a.example/b| c");
    check("\"|http://a.example/b|\"");
    check("<|http://a.example/b|>");
    check("|http://a.example/b|\\c");
    check("`|http://a.example/b|`");
    check("|http://a.example/b|\tx");
    check("|http://a.example/b|\u{7}x");
}

#[test]
fn vertical_bar_ends() {
    let hits: Vec<_> = Finder::new().find_iter(b"http://a.example/b|x").collect();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].text(), "http://a.example/b");
}

#[test]
fn full_width_delimiters_end() {
    for d in ["＂", "＜", "＞", "＼", "｀", "｜"] {
        check(&format!("|http://a.example/b|{d}c"));
    }
}

#[test]
fn invalid_utf8_and_replacement_character_end() {
    let mut bytes = b"http://a.example/b".to_vec();
    bytes.push(0xFF);
    bytes.extend_from_slice(b"c");
    let hits: Vec<_> = Finder::new().find_iter(&bytes).collect();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].text(), "http://a.example/b");
    check("|http://a.example/b|\u{FFFD}c");
}

#[test]
fn unicode_white_space_ends() {
    for ws in [
        "\u{85}", "\u{A0}", "\u{1680}", "\u{2000}", "\u{2005}", "\u{200A}", "\u{2028}", "\u{2029}",
        "\u{202F}", "\u{205F}", "\u{3000}",
    ] {
        check(&format!("|http://a.example/b|{ws}c"));
    }
}

#[test]
fn bidi_controls_end() {
    for b in [
        "\u{61C}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}",
        "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
    ] {
        check(&format!("{b}|http://a.example/b|{b}c"));
    }
}

#[test]
fn sentence_punctuation_of_other_scripts_ends() {
    for p in [
        "、", "。", "，", "．", "！", "？", "：", "；", "،", "؛", "؟", "۔", "।", "॥", "\u{37E}",
    ] {
        check(&format!("|http://a.example/パス|{p}次"));
    }
}

#[test]
fn quotation_marks_end_but_apostrophes_stay() {
    for (o, c) in [
        ("“", "”"),
        ("„", "“"),
        ("«", "»"),
        ("‹", "›"),
        ("「", "」"),
        ("『", "』"),
        ("〝", "〟"),
        ("＂", "＂"),
    ] {
        check(&format!("{o}|http://a.example/b|{c}"));
    }
    check("|https://fr.wikipedia.org/wiki/L’Étranger|");
    check("‘|http://a.example/b|’");
}

#[test]
fn unbalanced_closers_end_balanced_ones_stay() {
    check("(|https://en.wikipedia.org/wiki/Rust_(programming_language)|)");
    check("|http://a.example/b|)");
    check("|http://a.example/(b)|");
    check("（|http://a.example/b|）");
    check("|http://a.example/（注）|");
    check("【|http://a.example/b|】");
    check("〔|http://a.example/b|〕");
    check("〈|http://a.example/b|〉");
    check("《|http://a.example/b|》");
    check("〖|http://a.example/b|〗");
    check("⟨|http://a.example/b|⟩");
    check("｛|http://a.example/b|｝");
    check("［|http://a.example/b|］");
    check("(|http://a.example/b_(c)_d|)");
    // Brackets nest: `)` does not close the inner `[`, which is then
    // unclosed and ends the IRI in front of it.
    check("|http://a.example/(b|[c)d]");
}

#[test]
fn legacy_extended_characters_inside_when_balanced() {
    check("|http://a.example/x?sourcedoc={guid}|");
    check("|http://a.example/search?q=repo:^src|");
    check("|http://a.example/foo.php?a[]=1|");
    check("|https://en.wikipedia.org/wiki/Blur_[band]|");
    check("{|http://a.example/b|}");
    check("[|http://a.example/b|]");
    let hit = Finder::new()
        .find_iter(b"http://a.example/x?q={g}")
        .next()
        .unwrap();
    assert!(hit.warnings().any(|w| w == iriscan::Warning::Leiri));
}

#[test]
fn footnote_marks_are_not_part_of_the_iri() {
    check("|http://example.org|[1]");
    check("|http://example.org/a|[12].");
    check("|http://example.org/a[b]|");
}

#[test]
fn ip_literal_brackets_in_the_host() {
    check("|http://[2001:db8::7]/c=GB?objectClass?one|");
    check("[|http://[::1]/|]");
}

// §1.3 Trailing characters.

#[test]
fn trailing_ascii_punctuation_is_trimmed() {
    for p in [".", ",", ";", ":", "!", "?", "*", ".)", "...", "?!", "*."] {
        check(&format!("|http://a.example/b|{p}"));
    }
    check("*|http://a.example/b|*");
}

#[test]
fn trailing_hyphen_only_after_the_host() {
    check("|http://example.org|- where");
    check("|http://example.org/a-| b");
}

#[test]
fn trailing_opening_brackets_are_trimmed() {
    check("|http://a.example/b|(");
    check("|http://a.example/b|[");
    check("|http://a.example/b|（");
}

#[test]
fn apostrophe_kept_only_when_it_closes_one() {
    check("|http://a.example/a'b'|");
    check("|http://a.example/ab|'");
    check("'|http://a.example/ab|'");
    check("|http://a.example/it's| fine");
}

#[test]
fn trailing_non_ascii_punctuation_is_trimmed() {
    for p in ["…", "‥", "’", "—", "–", "‼", "※"] {
        check(&format!("|http://a.example/b|{p}"));
    }
    check("|http://a.example/¿|");
    check("|http://a.example/¡|");
}

#[test]
fn letters_and_path_characters_stay() {
    for s in ["/", "_", "~", "#", "=", "&", "+", "-", "%20"] {
        check(&format!("|http://a.example/b{s}| c"));
    }
}

#[test]
fn nothing_after_the_scheme_is_not_a_link() {
    none("http://");
    none("foo://...");
    none("http://.");
    none("see http://, and");
}

// §1.4 Delimited and wrapped forms.

#[test]
fn delimited_by_opener_ends_at_matching_closer() {
    check("'|http://a.example/b|'c");
    check("‘|http://a.example/b|’s");
    check("(|http://a.example/b|)c");
    check("«|http://a.example/b|»");
    check("「|http://a.example/b|」");
}

#[test]
fn angle_brackets_wrap_over_lines() {
    let text =
        "Note the warning in <http://www.ics.uci.edu/pub/\n   ietf/uri/historical.html#WARNING>.";
    let hits: Vec<_> = Finder::new().find_iter(text.as_bytes()).collect();
    assert_eq!(hits.len(), 1);
    assert_eq!(
        hits[0].text(),
        "http://www.ics.uci.edu/pub/\n   ietf/uri/historical.html#WARNING"
    );
    assert_eq!(
        hits[0].iri(),
        "http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING"
    );
    assert_eq!(&text[hits[0].range()], hits[0].text());
    // RFC 3986 Appendix C: the host itself may be wrapped.
    let text = "pick it up from <ftp://foo.example.\n   com/rfc/>.";
    let hits: Vec<_> = Finder::new().find_iter(text.as_bytes()).collect();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].iri(), "ftp://foo.example.com/rfc/");
    // A `www.` host wrapped so: its IRI has neither the line breaks nor
    // the indentation.
    let text = "at <www.example.\n   com/a/\n\tb/c>.";
    let hits: Vec<_> = Finder::new().find_iter(text.as_bytes()).collect();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].iri(), "http://www.example.com/a/b/c");
}

#[test]
fn angle_brackets_without_closer_do_not_wrap() {
    check("<|http://a.example/b|\nc d");
    check("<|http://a.example/b| c");
    check("<|http://a.example/b| c<d>");
}

/// §1.4: inside `<…>`, one space is no more part of the IRI than a line
/// break with indentation; the span covers the bracketed text.
#[test]
fn angle_brackets_with_a_space_inside() {
    check("<|http://a.example/b c|>");
    assert_eq!(
        iri_of("see <http://a.example/b c>."),
        ["http://a.example/bc"]
    );
    assert_eq!(
        iri_of("<https://a.example/very/long/ path?q=1>"),
        ["https://a.example/very/long/path?q=1"]
    );
    check("<|http://a.example/b|>");
    check("<|http://a.example/b| >");
}

/// §1.4: other white space inside `<…>` is prose: two spaces or more, or
/// one space before other white space, end the IRI.
#[test]
fn angle_brackets_with_prose_inside() {
    assert_eq!(
        iri_of("Contact <https://a.example/help or write to us> today"),
        ["https://a.example/help"]
    );
    check("Contact <|https://a.example/help| or write to us> today");
    check("<|www.example.nl|. TXT IN>");
    check("<|http://a.example/b|  c>");
    check("<|http://a.example/b|\tc d>");
    // A space, then a wrapped line: the space is not glue, the line break
    // would be.
    check("<|http://a.example/b| c\n d>");
    // A line break between two spaces is still a wrapped line.
    assert_eq!(iri_of("<http://a.example/b \n c>"), ["http://a.example/bc"]);
}

#[test]
fn url_prefix_in_angle_brackets() {
    check("<URL:|http://www.example.com/a|>");
    check("<url:|http://www.example.com/a\n  b|>");
    assert_eq!(
        iri_of("<URL:http://a.example/x\n y>"),
        ["http://a.example/xy"]
    );
}

// §1.5 Validation.

#[test]
fn invalid_candidates_are_reported_with_reason() {
    let text = "see http://a.example/%zz and http://a.example/ok";
    let hits: Vec<_> = Finder::new().find_iter(text.as_bytes()).collect();
    assert_eq!(hits.len(), 2);
    assert!(!hits[0].is_valid());
    assert_eq!(hits[0].error().unwrap().rule(), "pct-encoded");
    assert_eq!(hits[0].error_offset(), Some(text.find("%zz").unwrap()));
    assert!(hits[1].is_valid());
    check("see http://a.example/%zz and |http://a.example/ok|");
}

#[test]
fn private_use_only_in_the_query() {
    check("|http://a.example/?q=\u{E000}|");
    let hits: Vec<_> = Finder::new()
        .find_iter("http://a.example/\u{E000}".as_bytes())
        .collect();
    assert_eq!(hits.len(), 1);
    assert!(!hits[0].is_valid());
}

#[test]
fn kinds_are_reported() {
    let kinds: Vec<Kind> = Finder::new()
        .find_iter(b"http://a.example www.b.example c@d.example")
        .map(|h| h.kind())
        .collect();
    assert_eq!(kinds, [Kind::Iri, Kind::Www, Kind::Email]);
}

#[test]
fn truncated_candidates_are_reported_not_dropped() {
    let long = format!("http://a.example/{}", "x".repeat(10_000));
    let text = format!("{long} http://b.example/");
    let hits: Vec<_> = Finder::new().find_iter(text.as_bytes()).collect();
    assert_eq!(hits.len(), 2);
    assert!(hits[0].is_truncated());
    assert_eq!(hits[0].end() - hits[0].start(), 8 * 1024);
    assert_eq!(hits[1].text(), "http://b.example/");
    let hits: Vec<_> = Finder::new()
        .max_len(600)
        .find_iter(text.as_bytes())
        .collect();
    assert_eq!(hits[0].text().len(), 600);
}

#[test]
fn truncation_cuts_at_a_character_boundary() {
    let text = format!("http://a.example/{}", "é".repeat(5000));
    let hit = Finder::new().find_iter(text.as_bytes()).next().unwrap();
    assert!(hit.is_truncated());
    assert!(hit.end() - hit.start() <= 8 * 1024);
    assert!(text.is_char_boundary(hit.end()));
}

// §1.1 Where a candidate starts: string escapes, glued `_`, schemes that
// need an authority.

/// `\n`, `\r`, `\t` before a scheme are the string escapes of C, gettext
/// and JSON text: the scheme starts after them.
#[test]
fn string_escapes_before_a_scheme() {
    check(r#""\n|https://a.example/x|""#);
    check(r"\t|http://a.example/|");
    check(r"\r\n|ftp://a.example/pub|");
    check(r#"msgstr "\n|mailto:a@b.example|""#);
    // An escaped backslash and a letter: `\\nhttp` is `\` then `nhttp`.
    check(r"\\|nhttp://a.example/|");
    check(r"C:\\nfoo |http://a.example/|");
    // Without a backslash, a letter before the scheme is part of it.
    check("|nhttp://a.example/|");
    assert_eq!(iri_of(r"\nhttps://a.example/x"), ["https://a.example/x"]);
}

/// A scheme glued to `_` is part of an identifier: `app_scheme://…` in a
/// template is no link.
#[test]
fn scheme_glued_to_underscore_is_not_a_link() {
    none("app_scheme://example.org/x");
    none("MY_HTTP://a.example/");
    none("x_http://a.example/");
    check("_ |http://a.example/|");
}

/// Schemes whose syntax requires an authority are links only with `//`;
/// `file` also as `file:/path` (RFC 8089).
#[test]
fn schemes_that_need_an_authority() {
    none("git:commit");
    none("run git:example.com/ and git:domain.com");
    none("irc:://irc.example.org");
    none("ssh:foo ssh:host.example sftp:x telnet:h ldap:x ldaps:x rtsp:x nfs:x smb:x ircs:x");
    none("file:glob and file:some-file.txt");
    check("|git://git.example.org/repo.git|");
    check("|irc://irc.example.org/#rust|");
    check("|ssh://git@example.org:22/x|");
    check("|file:/etc/hosts|");
    check("|file:///etc/hosts|");
    check("|FILE:/tmp/x|");
    // Registered schemes without authority still go without `//`.
    check("|urn:isbn:0451450523| |news:comp.lang.rust|");
}

// §1.2 Unclosed `{` and `[`; a second `#`.

/// An opener `{` or `[` that nothing closes before the candidate ends ends
/// the IRI in front of it; balanced ones stay.
#[test]
fn unclosed_braces_and_brackets_end_the_iri() {
    check("|http://a.example/|{x");
    check("|http://a.example/a|[b");
    check("|http://a.example/a{b}c|{d");
    check("|http://a.example/x?q=|{a[b]");
    check("|http://a.example/x?a[]=1&b={c}|");
    check("|http://a.example/x|.{ y");
    check("|http://a.example/x|.{");
    // Before the host, nothing is left: no link.
    none("http://{host");
    none("http://[::1");
    // The `leiri` warning goes with the characters.
    let hit = Finder::new()
        .find_iter(b"http://a.example/x{y")
        .next()
        .unwrap();
    assert_eq!(hit.text(), "http://a.example/x");
    assert!(hit.warnings().all(|w| w != iriscan::Warning::Leiri));
}

/// A second `#` in the fragment (Matrix, single-page applications): the
/// IRI keeps it, the URI writes `%23`, the hit warns `leiri`.
#[test]
fn second_hash_in_the_fragment() {
    for (text, uri) in [
        (
            "https://matrix.to/#/#room:example.org",
            "https://matrix.to/#/%23room:example.org",
        ),
        (
            "https://app.example/app/#/room/#chan:example.org",
            "https://app.example/app/#/room/%23chan:example.org",
        ),
        ("https://a.example/x#a#b#", "https://a.example/x#a%23b%23"),
    ] {
        let hits: Vec<_> = Finder::new().find_iter(text.as_bytes()).collect();
        assert_eq!(hits.len(), 1, "{text}");
        let h = &hits[0];
        assert!(h.is_valid(), "{text}: {:?}", h.error());
        assert_eq!(h.iri(), text);
        assert_eq!(h.to_uri(&iriscan::UriOptions::new()).uri, uri);
        assert!(h.warnings().any(|w| w == iriscan::Warning::Leiri), "{text}");
    }
    // One `#` is no LEIRI.
    let h = Finder::new()
        .find_iter(b"https://a.example/x#y")
        .next()
        .unwrap();
    assert!(h.warnings().all(|w| w != iriscan::Warning::Leiri));
    check("see |https://matrix.to/#/#room:example.org|.");
}

// §1.6 Drop, never shorten.

/// Syntax templates of manuals and code: the candidate fails validation
/// and is dropped whole, never cut back to a valid prefix.
#[test]
fn templates_are_dropped_whole() {
    for t in [
        "http://user:secret@host:port/",
        "ftp://[[user][:pass]@]host[:port]/",
        "f\"http://localhost:{port}/\"",
        "http://{host}:{port}/",
        "https://mirror{n}.example.org",
        "http://example.com:80x/",
        "http://user:secret/",
        "http://a.example:8%30/",
        "http://a.example:$PORT/x",
        "www.example.com:port/x",
    ] {
        none(t);
    }
    // The candidate is reported whole, with the reason and its position.
    let text = "use http://user:secret@host:port/ here";
    let hits: Vec<_> = Finder::new().find_iter(text.as_bytes()).collect();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].text(), "http://user:secret@host:port/");
    assert_eq!(hits[0].error().unwrap().rule(), "port");
    assert_eq!(hits[0].error_offset(), Some(text.find("port/").unwrap()));
    let text = "http://localhost:{port}/";
    let hits: Vec<_> = Finder::new().find_iter(text.as_bytes()).collect();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].text(), text);
    assert_eq!(hits[0].error().unwrap().rule(), "port");
    assert_eq!(hits[0].error_offset(), Some(17));
    // `http://{` starts no candidate at all (no authority or path
    // character after `//`).
    assert_eq!(Finder::new().find_iter(b"http://{host}:{port}/").count(), 0);
}

/// Lines of manuals, catalogs and package documentation (Debian 12,
/// installed man pages rendered with `man -l`, `.mo` catalogs through
/// `msgunfmt`, `/usr/share/doc`) that iriscan used to cut to a valid
/// prefix, or to link where the author wrote no link (docs/rules.md §1.1,
/// §1.6). Each names its package, version and file.
#[test]
fn templates_and_names_in_real_text() {
    // apt 2.6.1, man/man1/apt-transport-http.1
    none("       scheme://[[user][:pass]@]host[:port]/. Valid schemes");
    // apt 2.6.1, man/de/man5/sources.list.5 (and fr, it, ja)
    none("   http://Benutzer:Passwort@Server:Port/");
    none("   http://user:pass@server:port/");
    // python3-pip 23.0.1, html/user_guide.rst
    none("  ``scheme://[user:passwd@]proxy.server:port``");
    // git 2.39.5, changelog
    none("      Documentation: Fix ssh://[user@]host.xz URL");
    // libevent 2.1.12, changelog
    none("  o https-client: correctly handle URLs with no path (like \"https://host:port\")");
    // nodejs 20.20.2, api/cli.md and api/perf_hooks.md
    none("endpoint on <code>http://host:port/json/list</code>.</p>");
    none("  http.get(`http://127.0.0.1:${PORT}`);");
    // wget 1.21.3, changelog
    none("\t  \"Location\" => \"http://localhost:{{port}}/whatever");
    // dpkg-dev 1.21.22, man/fr/man5/deb-control.5
    none("   utilisé est type_de_bts://adresse-du-bts, par exemple");
    // gdb 13.1, NEWS and check.log; linux-libc-dev 6.1.187, changelog.Debian
    none("  FILE:LINE support has been expanded to");
    none("PASS: gdb.base/break.exp: test_break: run until file:function(6) breakpoint");
    none("    - [x86] efistub: Use 1:1 file:memory mapping for PE/COFF .compat");
    // libgtk2.0-common 2.24.33, de and sv gtk20-properties.mo
    none("\"Sollen die auswählbaren Dateien auf lokale file:-Adressen begrenzt werden?\"");
    none("msgstr \"Huruvida de valda filerna ska begränsas till lokala file:-URI:er\"");
    // git 2.39.5, sv git.mo: the Swedish genitive of a name
    none("msgstr \"lägg till git:s standardexkluderingar\"");
    none("msgstr \"Git:s i18n-startkod för skalskript\"");
    // nodejs 20.20.2, api/all.json: a JSON string's `\n` before the link
    check(
        r"see: |https://nodejs.org/en/docs/inspector|\n|ws://127.0.0.1:9229/166e272e-7a30-4d09-97ce-f1c012b43c34|\n\n$ node",
    );
    // psmisc 23.6, README.md; python3-yaml 6.0, README.md: Matrix rooms
    check("a Matrix room [#psmisc](|https://matrix.to/#/#psmisc:dropbear.xyz|)");
    check("  Matrix at |https://matrix.to/#/#pyyaml:yaml.io| or");
    // curl 7.88.1, man/man1/curl.1, and google-cloud-cli, man/man1/gcloud_alpha_compute_security-policies_add-layer7-ddos-defense-threshold-config.1:
    // a `;` after a DNS host makes it implausible (only `,` ends one):
    // the candidate is dropped, not cut back to the host.
    check("curl --referer \"https://fake.example;auto\" -L |https://example.com|");
    none(" value=www.my-test-host.com;type=HTTP_PATH,enableEachUniqueValue=true");
}

/// `<…>` with spaces inside that are prose, in real text (libunbound8
/// 1.17.1, changelog: a DNS record; libxcb-render-util0 0.3.9, README: an
/// address written with `at`): more than one space before the `>`, so
/// the words are not joined (§1.4, as issue 18's closing note asked).
#[test]
fn angle_brackets_with_spaces_in_real_text() {
    assert_eq!(
        iri_of("validation failure <www.example.nl. TXT IN>: signature crypto"),
        ["http://www.example.nl"]
    );
    assert_eq!(
        iri_of("  <mailto:xcb at lists.freedesktop.org>"),
        ["mailto:xcb"]
    );
}
