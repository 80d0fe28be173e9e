//! Generated benchmark corpora: deterministic texts with a known number of
//! IRIs, so every benchmark can assert its hit count (the memchr habit).

#![allow(dead_code)]

/// A small deterministic generator (xorshift), so corpora are identical on
/// every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next() % items.len() as u64) as usize]
    }
}

/// Sentences of ordinary prose: colons, times, abbreviations and dots as
/// often as in news text (a colon in about one sentence of ten).
const ENGLISH: &[&str] = &[
    "The committee met on Tuesday to discuss the budget for the coming year.",
    "She said it was the best book she had read in years, and I believe her.",
    "Prices rose by 3.5% in March, the largest increase since 2008.",
    "After the storm, the village council voted to rebuild the old bridge.",
    "Dr. Smith et al. published the paper in vol. 12, pp. 33-45 of the journal.",
    "It was late, so we took the train home and talked about everything and nothing.",
    "The museum will reopen next spring after a long renovation of its east wing.",
    "Most of the volunteers had never worked on a farm before, but they learned quickly.",
    "He answered every letter by hand, which took him most of the evening.",
    "The results were mixed: some regions grew while others shrank.",
    "A new study suggests that sleep matters more for memory than we thought.",
    "The train leaves at 7:45 and arrives shortly before noon.",
];
const ENGLISH_LINKS: &[&str] = &[
    "https://www.example.com/articles/2024/budget-report.html",
    "http://example.org/wiki/Rust_(programming_language)",
    "www.example.net/about",
    "jane.doe@example.com",
    "https://docs.example.io/guide?section=3&lang=en#install",
    "mailto:info@example.org",
];

const MULTI: &[&str] = &[
    "東京都の天気予報によると、明日は雨が降るそうです。",
    "我们明天在北京开会，请准时参加。",
    "오늘 회의는 오후 세 시에 시작합니다.",
    "Сегодня в Москве прошёл сильный дождь, движение затруднено.",
    "أعلنت الوزارة عن خطة جديدة لتطوير التعليم في البلاد.",
    "הממשלה אישרה את התקציב החדש לשנה הבאה.",
    "सरकार ने नई शिक्षा नीति की घोषणा की है।",
    "วันนี้อากาศดีมาก เราไปเที่ยวทะเลกัน",
    "Η κυβέρνηση ανακοίνωσε νέα μέτρα για την οικονομία.",
    "Le conseil municipal a voté\u{A0}: la place sera rénovée en été\u{A0}!",
    "Die Straße wird wegen Bauarbeiten bis Freitag gesperrt.",
];

const MULTI_LINKS: &[&str] = &[
    "https://ja.wikipedia.org/wiki/東京都",
    "http://例え.テスト/パス?q=東京",
    "https://zh.wikipedia.org/wiki/北京",
    "https://ko.wikipedia.org/wiki/서울특별시",
    "http://пример.рф/новости?id=5",
    "https://ar.wikipedia.org/wiki/القاهرة",
    "https://he.wikipedia.org/wiki/ירושלים",
    "https://hi.wikipedia.org/wiki/दिल्ली",
    "https://th.wikipedia.org/wiki/กรุงเทพมหานคร",
    "https://el.wikipedia.org/wiki/Αθήνα",
    "https://fr.wikipedia.org/wiki/Été",
    "www.bürgerentscheid-krankenhäuser.de/info",
    "marie.curie@exemple.fr",
];

/// Builds about `bytes` of text from `sentences`, with one link from
/// `links` every `every` sentences (set apart by spaces, so its span is
/// unambiguous). Returns the text and the number of links in it.
fn build(
    bytes: usize,
    sentences: &[&str],
    links: &[&str],
    every: u64,
    seed: u64,
) -> (String, usize) {
    let mut rng = Rng::new(seed);
    let mut text = String::with_capacity(bytes + 256);
    let mut n = 0;
    while text.len() < bytes {
        let s: &&str = rng.pick(sentences);
        text.push_str(s);
        text.push(' ');
        if rng.next().is_multiple_of(every) {
            let l: &&str = rng.pick(links);
            text.push_str(l);
            text.push(' ');
            n += 1;
        }
        if rng.next().is_multiple_of(6) {
            text.push('\n');
        }
    }
    (text, n)
}

/// English prose with sparse links (about one per 2 KiB).
pub fn prose(bytes: usize) -> (String, usize) {
    build(bytes, ENGLISH, ENGLISH_LINKS, 30, 7)
}

/// Multilingual text (ten scripts) with an IRI every few sentences.
pub fn multilingual(bytes: usize) -> (String, usize) {
    build(bytes, MULTI, MULTI_LINKS, 3, 11)
}

/// Short lead-ins in many scripts, as in link lists, chat logs, bug
/// trackers and crawled anchor text: a few words before each link.
const LEAD_INS: &[&str] = &[
    "See",
    "More at",
    "Source:",
    "Voir aussi",
    "Siehe",
    "Véase",
    "詳しくは",
    "参见",
    "자세한 내용은",
    "Подробнее:",
    "انظر",
    "ראו",
    "देखें",
    "ดูที่",
    "Βλ.",
    "(mirror)",
    "Contact",
    "→",
];

/// Link-dense text: a link every line or two (about one per 60 bytes),
/// 20+ scripts, URLs with and without a scheme, `www.` hosts, e-mail
/// addresses, some in parentheses, `<…>` or followed by punctuation.
pub fn link_dense(bytes: usize) -> (String, usize) {
    let mut rng = Rng::new(29);
    let links: Vec<&str> = ENGLISH_LINKS
        .iter()
        .chain(MULTI_LINKS)
        .chain(LATIN_LINKS)
        .chain(JAPANESE_LINKS)
        .copied()
        .collect();
    let mut text = String::with_capacity(bytes + 256);
    let mut n = 0;
    while text.len() < bytes {
        let lead: &&str = rng.pick(LEAD_INS);
        let link: &&str = rng.pick(&links);
        text.push_str(lead);
        text.push(' ');
        match rng.next() % 5 {
            0 => {
                text.push('(');
                text.push_str(link);
                text.push(')');
            }
            1 => {
                text.push('<');
                text.push_str(link);
                text.push('>');
            }
            2 => {
                text.push_str(link);
                text.push('.');
            }
            _ => text.push_str(link),
        }
        n += 1;
        text.push(if rng.next().is_multiple_of(2) {
            '\n'
        } else {
            ' '
        });
    }
    (text, n)
}

/// An Apache combined access log: a request path, a referrer URL and a
/// user agent with a `+http://` bot URL on some lines.
pub fn access_log(bytes: usize) -> (String, usize) {
    let mut rng = Rng::new(13);
    let paths = [
        "/index.html",
        "/search?q=rust+iri",
        "/wiki/東京",
        "/static/app.js",
        "/api/v1/items/42",
    ];
    let agents = [
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "curl/8.5.0",
    ];
    let mut text = String::with_capacity(bytes + 512);
    let mut n = 0;
    while text.len() < bytes {
        let ip = rng.next() % 256;
        let path = rng.pick(&paths);
        let agent = rng.pick(&agents);
        let referrer = if rng.next().is_multiple_of(2) {
            "https://www.example.com/start?ref=mail"
        } else {
            "-"
        };
        n += usize::from(referrer != "-") + usize::from(agent.contains("http://"));
        text.push_str(&format!(
            "192.0.2.{ip} - - [22/Nov/2026:10:{:02}:{:02} +0000] \"GET {path} HTTP/1.1\" 200 {} \"{referrer}\" \"{agent}\"\n",
            rng.next() % 60,
            rng.next() % 60,
            rng.next() % 100_000,
        ));
    }
    (text, n)
}

/// Inputs that make naive link finders slow, repeated to `bytes`.
pub const ADVERSARIAL: &[(&str, &str)] = &[
    ("parens", "(((((((((("),
    ("a.a~", "a.a~"),
    ("http-chain", "http://"),
    ("bad-hosts", "http://-a/"),
    ("www-bad-label", "www.ąwww."),
    ("no-space", "abcdefghij"),
    ("scheme-run", "a+b-c.d"),
    ("at-signs", "a@"),
    ("colons", "x:"),
    ("w-dots", "w."),
    ("www-runs", "www."),
    ("open-brackets", "http://["),
    ("www-brackets", "www.a["),
    // Triggers every few bytes that only a lookup or a reading of the
    // candidate rejects.
    ("www-two-labels", "www.a/["),
    ("word-colons", "ab:"),
    ("file-colons", "file:"),
    ("colon-paths", "x:/a"),
];

pub fn adversarial(unit: &str, bytes: usize) -> String {
    unit.repeat(bytes / unit.len() + 1)
}

const LATIN: &[&str] = &[
    "Le conseil municipal a voté : la place sera rénovée en été !",
    "Die Straße wird wegen Bauarbeiten bis Freitag gesperrt.",
    "El ayuntamiento aprobó el presupuesto para el año próximo.",
    "Prices rose by 3.5% in March, the largest increase since 2008.",
];

const LATIN_LINKS: &[&str] = &[
    "https://fr.wikipedia.org/wiki/Été?q=café",
    "http://example.de/Übersicht",
    "www.ejemplo.es/año",
    "josé@example.es",
];

/// Western European text (encodable in windows-1252) with links.
pub fn latin(bytes: usize) -> (String, usize) {
    build(bytes, LATIN, LATIN_LINKS, 4, 17)
}

const JAPANESE: &[&str] = &[
    "東京都の天気予報によると、明日は雨が降るそうです。",
    "会議は午後三時に始まります。資料を準備してください。",
    "新しい図書館が駅の近くに開館しました。",
];

const JAPANESE_LINKS: &[&str] = &[
    "https://ja.wikipedia.org/wiki/東京都",
    "http://example.jp/検索?q=東京",
    "www.example.co.jp/お知らせ",
    "info@example.jp",
];

/// Japanese text (encodable in Shift_JIS) with links.
pub fn japanese(bytes: usize) -> (String, usize) {
    build(bytes, JAPANESE, JAPANESE_LINKS, 3, 19)
}

/// `n` IRI references for bulk jobs: variants of a few thousand resources
/// (case, default ports, dot segments, percent-encoding, IDN vs punycode),
/// and the number of distinct scheme-normalized keys among them.
pub fn iri_lines(n: usize) -> (Vec<String>, usize) {
    let mut rng = Rng::new(23);
    let resources = 5000;
    let hosts = [
        "example.com",
        "例え.テスト",
        "xn--r8jz45g.xn--zckzah",
        "www.example.org",
    ];
    let mut lines = Vec::with_capacity(n);
    let mut used = std::collections::HashSet::new();
    for _ in 0..n {
        let r = (rng.next() % resources) as usize;
        // Hosts 1 and 2 are the same IDN; resources differ by path.
        let host_class = r % 3;
        let host = match (host_class, rng.next() % 2) {
            (0, _) => hosts[0],
            (1, 0) => hosts[1],
            (1, _) => hosts[2],
            _ => hosts[3],
        };
        let variant = rng.next() % 4;
        let line = match variant {
            0 => format!("http://{host}/docs/{r}/page"),
            1 => format!("HTTP://{}:80/docs/./{r}/x/../page", host.to_uppercase()),
            2 => {
                // The first digit percent-encoded (unreserved: normalized away).
                let s = r.to_string();
                format!(
                    "http://{host}/docs/%{:02X}{}/page",
                    s.as_bytes()[0],
                    &s[1..]
                )
            }
            _ => format!("http://{host}/docs/{r}/page#top"),
        };
        used.insert((r, variant == 3));
        lines.push(line);
    }
    (lines, used.len())
}
