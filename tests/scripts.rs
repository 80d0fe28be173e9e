//! Running text in many scripts: every IRI is found with the exact span a
//! reader would mark, and no sentence punctuation is swallowed (the "Done
//! when" of the foundation issue). Spans are marked with `|`.

use iriscan::Finder;

#[track_caller]
fn check(marked: &str) {
    let text = marked.replace('|', "");
    let expected: Vec<&str> = marked.split('|').skip(1).step_by(2).collect();
    let got: Vec<String> = Finder::new()
        .find_iter(text.as_bytes())
        .filter(|h| h.is_valid())
        .map(|h| {
            assert_eq!(&text[h.range()], h.text());
            h.text().to_string()
        })
        .collect();
    assert_eq!(got, expected, "in {text:?}");
}

#[test]
fn japanese() {
    check("詳細は|https://ja.wikipedia.org/wiki/東京都| をご覧ください。");
    check("公式サイト（|https://www.example.co.jp/お知らせ/2024|）で発表しました。");
    check("資料は「|http://example.jp/資料.pdf|」です。問い合わせは|info@example.jp|まで。");
    check("検索：|http://example.jp/検索?q=東京|、または|www.example.jp|、など。");
    check("参考：|http://www.scriptics.com|参照");
}

#[test]
fn chinese() {
    check("请访问|https://zh.wikipedia.org/wiki/北京|，了解更多信息。");
    check("详见《|http://example.cn/文档/说明.html|》；或者发邮件到|service@example.cn|！");
    check("下载地址：|http://example.com.cn/下载?版本=最新|？");
}

#[test]
fn korean() {
    check("자세한 내용은 |https://ko.wikipedia.org/wiki/서울특별시| 를 참조하세요.");
    check("홈페이지(|http://www.example.kr/소개|)에서 확인할 수 있습니다.");
    check("|www.naver.com|에서 검색하세요.");
}

#[test]
fn russian() {
    check("Подробнее: |https://ru.wikipedia.org/wiki/Москва|. Спасибо!");
    check(
        "Пишите на |почта@пример.рф| или заходите на |http://пример.рф/новости?id=5|, «|http://example.ru/страница|».",
    );
}

#[test]
fn arabic() {
    check("راجع |https://ar.wikipedia.org/wiki/القاهرة|، ثم اكتب إلى |info@example.eg|.");
    check("هل زرت |http://example.sa/صفحة|؟ نعم.");
    check("\u{200F}|http://example.ae/مقالة|\u{200F} جديد");
}

#[test]
fn hebrew() {
    check("ראו |https://he.wikipedia.org/wiki/ירושלים|. תודה!");
    check("האתר (|http://example.co.il/דף|) פתוח.");
}

#[test]
fn hindi() {
    check("अधिक जानकारी के लिए |https://hi.wikipedia.org/wiki/दिल्ली| देखें। धन्यवाद॥");
    check("यहाँ देखें: |http://example.in/पृष्ठ|।");
}

#[test]
fn thai() {
    check("ดูรายละเอียดที่ |https://th.wikipedia.org/wiki/กรุงเทพมหานคร| ครับ");
    check("ติดต่อ |contact@example.co.th| หรือ |www.example.co.th|");
}

#[test]
fn greek() {
    check("Δείτε |https://el.wikipedia.org/wiki/Αθήνα|; Ναι.");
    check("Διαβάστε το «|http://example.gr/άρθρο|»· ευχαριστώ.");
    check("Πού είναι το |http://example.gr/σελίδα|\u{37E}");
}

#[test]
fn german_and_french_typography() {
    check("Siehe „|https://de.wikipedia.org/wiki/Straße|“ – oder |http://example.de/Übersicht|.");
    check(
        "Voir «\u{A0}|https://fr.wikipedia.org/wiki/Été|\u{A0}» ou |http://exemple.fr/page|\u{A0}!",
    );
    check("Adresse\u{A0}: |http://exemple.fr/café?x=é|\u{202F}; merci.");
    check("Écrivez à |marie.curie@exemple.fr|\u{A0}: c’est simple.");
}

/// A path glued to prose cannot be told from a real path (wiki titles
/// carry particles and kana too), so it stays (docs/rules.md §1.1); a host
/// glued to prose ends at the switch of script.
#[test]
fn glued_paths_stay_glued_hosts_do_not() {
    check("詳細は|https://ja.wikipedia.org/wiki/東京都をご覧ください|。");
    check("자세한 내용은 |https://ko.wikipedia.org/wiki/서울특별시를| 참조하세요.");
    check("|http://www.example.co.jp|をご覧ください。");
}

#[test]
fn emoji_and_idn_hosts() {
    check("|http://📙.la/🧛🏻\u{200D}♂️| and |http://✪df.ws/123|");
    check("|http://www.bürgerentscheid-krankenhäuser.de|");
    check("|http://foobar.پاکستان/|");
}
