//! A realistic set of IRIs for the validator benchmark (`benches/validate.rs`):
//! what links in multilingual web pages, mail and logs look like, made by a
//! deterministic generator so that every run validates the same strings.
//!
//! [`realistic_iris`] writes `n` IRIs from a fixed seed:
//!
//! - schemes by how often links carry them: `https`, `http`, `mailto`,
//!   `ftp`, `urn`;
//! - hosts: ASCII names, internationalized names (Unicode labels under
//!   Unicode or ASCII top-level domains), a few IPv4 addresses and IPv6
//!   literals, sometimes a port, for `ftp` sometimes a userinfo;
//! - paths of words in a dozen scripts (Latin with accents, Cyrillic, Greek,
//!   Arabic, Hebrew, Devanagari, Thai, Chinese, Japanese, Korean, emoji) and
//!   of ASCII words, some percent-encoded (`caf%C3%A9`, `%E4%BE%8B`);
//! - queries of `key=value` pairs, fragments;
//! - a few strings that are not IRIs, as links cut from running text are:
//!   a space, `|`, `<`, `^`, a `%` without two hex digits, a `[` in the
//!   path, and (in Arabic and Hebrew paths) a RIGHT-TO-LEFT MARK, which the
//!   ABNF admits but RFC 3987 §4.1 forbids (iriscan rejects it, oxiri and
//!   iri-string accept it).
//!
//! About 42% of the IRIs hold a non-ASCII character (the bench asserts it),
//! as the link-dense corpus of `examples/compare` does.

/// A xorshift64* generator: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() >> 33) as usize % n
    }

    /// True with probability `percent`/100.
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const ASCII_LABELS: &[&str] = &[
    "www",
    "example",
    "docs",
    "news",
    "mail",
    "api",
    "cdn",
    "blog",
    "shop",
    "static",
    "en",
    "wiki",
    "github",
    "forum",
    "my-site",
    "data",
    "img",
    "m",
    "support",
    "web-archive",
];
const ASCII_TLDS: &[&str] = &[
    "com", "org", "net", "de", "fr", "jp", "io", "co.uk", "ru", "cn", "info", "edu",
];
const IDN_HOSTS: &[&str] = &[
    "bücher.de",
    "müller-straße.de",
    "例え.jp",
    "日本語.jp",
    "пример.рф",
    "яндекс.рф",
    "δοκιμή.gr",
    "مثال.إختبار",
    "उदाहरण.भारत",
    "테스트.kr",
    "ไทย.th",
    "中国.cn",
    "españa.es",
    "café.fr",
    "☃.net",
    "xn--bcher-kva.de",
];
const ASCII_WORDS: &[&str] = &[
    "wiki",
    "index.html",
    "docs",
    "2024",
    "api",
    "v1",
    "users",
    "search",
    "articles",
    "img",
    "logo.png",
    "about",
    "en-US",
    "release-notes",
    "src",
    "main",
    "issues",
    "42",
    "a_b",
    "~user",
    "download",
    "file.tar.gz",
    "static",
    "css",
    "app.js",
    "page",
    "item;id=7",
    "p=1,2",
];
const UNICODE_WORDS: &[&str] = &[
    "café",
    "Zürich",
    "résumé",
    "Ελληνικά",
    "Москва",
    "Кириллица",
    "Україна",
    "العربية",
    "مقالة",
    "עברית",
    "हिन्दी",
    "भारत",
    "ภาษาไทย",
    "北京",
    "中文维基百科",
    "東京",
    "引き出し",
    "カタカナ",
    "한국어",
    "서울",
    "😀",
    "🍕-recipes",
    "Ærø",
    "Łódź",
    "İstanbul",
    "Ἀθῆναι",
];
const PERCENT_WORDS: &[&str] = &[
    "caf%C3%A9",
    "%E4%BE%8B",
    "a%20b",
    "%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0",
    "100%25",
    "%7Euser",
    "na%C3%AFve",
];
const QUERY_KEYS: &[&str] = &[
    "q",
    "id",
    "page",
    "lang",
    "ref",
    "utm_source",
    "s",
    "search",
    "sort",
    "t",
];
const ARABIC_HEBREW: &[&str] = &["العربية", "مقالة", "עברית"];
/// Characters that make a link invalid as an IRI, as running text leaves
/// them in: a space, `|`, `<`, `^`, a bad `%`, a `[` in the path.
const FAULTS: &[&str] = &[" ", "|", "<", "^", "%g", "%4", "["];

/// One word of a path, query or fragment: ASCII, Unicode or
/// percent-encoded, with `unicode` percent the chance of a Unicode one.
fn word(rng: &mut Rng, unicode: usize) -> String {
    let r = rng.below(100);
    if r < unicode {
        rng.pick(UNICODE_WORDS).to_string()
    } else if r < unicode + 6 {
        rng.pick(PERCENT_WORDS).to_string()
    } else {
        rng.pick(ASCII_WORDS).to_string()
    }
}

fn ascii_host(rng: &mut Rng) -> String {
    let mut h = String::new();
    for _ in 0..1 + rng.below(2) {
        h.push_str(rng.pick(ASCII_LABELS));
        h.push('.');
    }
    h.push_str(rng.pick(ASCII_TLDS));
    h
}

/// A host, with the chance `idn` percent of an internationalized name.
fn host(rng: &mut Rng, idn: usize) -> String {
    let r = rng.below(100);
    if r < 3 {
        format!(
            "{}.{}.{}.{}",
            rng.below(256),
            rng.below(256),
            rng.below(256),
            rng.below(256)
        )
    } else if r < 5 {
        rng.pick(&[
            "[2001:db8::1]",
            "[::1]",
            "[fe80::1:2:3:4]",
            "[2001:db8:85a3::8a2e:370:7334]",
            "[::ffff:192.0.2.1]",
        ])
        .to_string()
    } else if r < 5 + idn {
        rng.pick(IDN_HOSTS).to_string()
    } else {
        ascii_host(rng)
    }
}

fn web(rng: &mut Rng, scheme: &str, unicode: usize) -> String {
    let mut s = format!("{scheme}://");
    if scheme == "ftp" && rng.chance(30) {
        s.push_str(rng.pick(&["anonymous@", "user:secret@", "ftp@"]));
    }
    s.push_str(&host(rng, unicode / 2));
    if rng.chance(8) {
        s.push_str(rng.pick(&[":8080", ":443", ":21", ":3000", ":8443"]));
    }
    for _ in 0..rng.below(5) {
        s.push('/');
        s.push_str(&word(rng, unicode));
    }
    if rng.chance(20) {
        s.push('/');
    }
    if rng.chance(30) {
        s.push('?');
        for k in 0..1 + rng.below(3) {
            if k > 0 {
                s.push('&');
            }
            s.push_str(rng.pick(QUERY_KEYS));
            s.push('=');
            s.push_str(&word(rng, unicode));
        }
    }
    if rng.chance(12) {
        s.push('#');
        s.push_str(&word(rng, unicode));
    }
    s
}

fn mailto(rng: &mut Rng, unicode: usize) -> String {
    let local = rng.pick(&["info", "john.doe", "a.b+tag", "support", "jürgen", "用户"]);
    let domain = if rng.chance(unicode / 2) {
        rng.pick(IDN_HOSTS).to_string()
    } else {
        ascii_host(rng)
    };
    let mut s = format!("mailto:{local}@{domain}");
    if rng.chance(15) {
        s.push_str("?subject=");
        s.push_str(&word(rng, unicode));
    }
    s
}

fn urn(rng: &mut Rng) -> String {
    let n = rng.next();
    match rng.below(4) {
        0 => format!("urn:isbn:978{:010}", n % 10_000_000_000),
        1 => format!(
            "urn:uuid:{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
            n >> 32,
            n & 0xFFFF,
            (n >> 16) & 0xFFF,
            (n >> 28) & 0xFFF,
            n & 0xFFFF_FFFF_FFFF
        ),
        2 => format!("urn:ietf:rfc:{}", 1000 + n % 9000),
        _ => format!("urn:nbn:de:bvb:{}-{}", n % 100, n % 1_000_000),
    }
}

/// `n` realistic IRIs, the same on every call.
pub fn realistic_iris(n: usize) -> Vec<String> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    // The chance, in percent, that a word is in a non-ASCII script; tuned
    // so that about 42% of the IRIs hold a non-ASCII character.
    let unicode = 19;
    (0..n)
        .map(|_| {
            let r = rng.below(100);
            let mut s = match r {
                0..50 => web(&mut rng, "https", unicode),
                50..75 => web(&mut rng, "http", unicode),
                75..85 => mailto(&mut rng, unicode),
                85..93 => web(&mut rng, "ftp", unicode),
                _ => urn(&mut rng),
            };
            if rng.chance(3) {
                // A fault somewhere after the scheme.
                let at = s.find(':').map_or(0, |i| i + 1);
                let at = at + rng.below(s.len() - at + 1);
                let at = (at..=s.len()).find(|&i| s.is_char_boundary(i)).unwrap();
                s.insert_str(at, rng.pick(FAULTS));
            } else if rng.chance(1) {
                // A right-to-left mark after a word of a right-to-left script.
                s.push_str(if s.contains('?') { "&x=" } else { "/" });
                s.push_str(rng.pick(ARABIC_HEBREW));
                s.push('\u{200F}');
            }
            s
        })
        .collect()
}
