//! Whether a host is safe to show in Unicode: the checks of Unicode
//! Technical Standard #39 that browsers apply to a domain name before they
//! display it as Unicode rather than punycode (docs/rules.md §7.2).
//!
//! A reader cannot tell `аррӏе.com` (Cyrillic, `xn--80ak6aa92e.com`) from
//! `apple.com`, nor `pаypal.com` (one Cyrillic `а`) from `paypal.com`. Two
//! checks catch them, label by label, on the Unicode form of the host (the
//! `xn--` labels converted with UTS #46 ToUnicode, `%HH` of UTF-8 decoded):
//!
//! - **mixed script** — the label's characters come from scripts that no
//!   writing system mixes: UTS #39 §5.2 restriction levels above
//!   *moderately restrictive* (Latin with Cyrillic, Greek with Cyrillic…;
//!   Latin with Han and kana, or with one other recommended script such as
//!   Arabic or Devanagari, is ordinary). Characters that are not identifier
//!   characters (UTS #39 §3.1: symbols, emoji) have no say.
//! - **whole-script confusable** — the label is not ASCII, yet its UTS #39
//!   §4 *skeleton* (each character replaced by its prototype) is: every one
//!   of its characters looks like an ASCII one. It is not reported when the
//!   top-level domain is in the label's own script (`сайт.рф`), where a
//!   reader expects that script, as browsers do.
//!
//! The checks use the `unicode-security` crate (UTS #39's data and
//! algorithms); they run only when asked (a hit's warnings, or `to_iri`
//! deciding whether to show a label in Unicode), never while scanning.

use unicode_script::{Script, ScriptExtension};
use unicode_security::{
    GeneralSecurityProfile, RestrictionLevel, RestrictionLevelDetection, skeleton,
};

use crate::iri::host_mapping::{is_ace_label, punycode_label_to_unicode};
use crate::iri::percent::decode_all;

/// What the checks found in a host.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct HostSpoofing {
    /// A label mixes scripts (UTS #39 §5.2).
    pub mixed_script: bool,
    /// A label is whole-script confusable with an ASCII one (UTS #39 §4).
    pub confusable: bool,
}

impl HostSpoofing {
    /// Whether the host passed both checks.
    pub(crate) fn is_safe(self) -> bool {
        !self.mixed_script && !self.confusable
    }
}

/// The Unicode form of a `reg-name` host: `%HH` decoded when they form
/// UTF-8, each `xn--` label converted with ToUnicode when UTS #46 accepts
/// it. `None` when the host is ASCII without punycode (nothing to check).
pub(crate) fn unicode_host(host: &str) -> Option<String> {
    let decoded;
    let host = if host.contains('%') {
        decoded = String::from_utf8(decode_all(host)).ok()?;
        decoded.as_str()
    } else {
        host
    };
    if host.is_ascii() && !host.split('.').any(is_ace_label) {
        return None;
    }
    let mut out = String::with_capacity(host.len() * 2);
    for (k, label) in host.split('.').enumerate() {
        if k > 0 {
            out.push('.');
        }
        match is_ace_label(label)
            .then(|| punycode_label_to_unicode(label))
            .flatten()
        {
            Some(unicode) => out.push_str(&unicode),
            None => out.push_str(label),
        }
    }
    Some(out)
}

/// The checks on a host already in Unicode form (see [`unicode_host`]).
pub(crate) fn host_spoofing(unicode: &str) -> HostSpoofing {
    let labels: Vec<&str> = unicode.split('.').collect();
    let tld = labels
        .iter()
        .rev()
        .find(|l| !l.is_empty())
        .copied()
        .unwrap_or("");
    let mut found = HostSpoofing::default();
    for label in labels.iter().filter(|l| !l.is_ascii()) {
        found.mixed_script |= mixes_scripts(label);
        found.confusable |= looks_ascii(label) && !same_script_tld(label, tld);
    }
    found
}

/// Whether a label mixes scripts beyond UTS #39's moderately restrictive
/// level, counting only identifier characters.
pub(crate) fn mixes_scripts(label: &str) -> bool {
    let letters: String = label
        .chars()
        .flat_map(char::to_lowercase)
        .filter(|&c| c.identifier_allowed())
        .collect();
    letters.as_str().detect_restriction_level() > RestrictionLevel::ModeratelyRestrictive
}

/// Whether a non-ASCII label's skeleton is ASCII: every character of it is
/// confusable with an ASCII one.
pub(crate) fn looks_ascii(label: &str) -> bool {
    !label.is_ascii() && skeleton(&label.to_lowercase()).all(|c| c.is_ascii())
}

/// Whether the top-level domain is non-ASCII and written in a script of
/// the label (Cyrillic under `.рф`, Greek under `.ελ`).
fn same_script_tld(label: &str, tld: &str) -> bool {
    if tld.is_ascii() {
        return false;
    }
    // Common characters (digits, hyphens) join any script: the
    // intersection is the script of the letters.
    let both = ScriptExtension::for_str(label).intersection(ScriptExtension::for_str(tld));
    !both.is_empty() && !both.contains_script(Script::Latin)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(host: &str) -> HostSpoofing {
        host_spoofing(&unicode_host(host).unwrap_or_else(|| host.to_owned()))
    }

    #[test]
    fn homographs_are_caught() {
        // The Apple homograph of 2017 (Xudong Zheng): all Cyrillic.
        assert!(check("xn--80ak6aa92e.com").confusable);
        assert!(check("аррӏе.com").confusable);
        // One Cyrillic letter among Latin ones.
        let paypal = check("pаypal.com");
        assert!(paypal.mixed_script && paypal.confusable);
    }

    #[test]
    fn ordinary_hosts_are_safe() {
        for host in [
            "example.com",
            "xn--99zt52a.example.org",
            "納豆.example.org",
            "пример.рф",
            "сайт.рф",
            "résumé.example",
            "ドメイン名例.jp",
            "日本語とカナ.jp",
            "한국어.kr",
            "παράδειγμα.ελ",
            "उदाहरण.भारत",
            "مثال.إختبار",
            "bücher.de",
        ] {
            assert!(check(host).is_safe(), "{host}: {:?}", check(host));
        }
    }
}
