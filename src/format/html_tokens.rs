//! What an HTML reader takes from a page, as the page is tokenized: the
//! text a reader sees and the values of the attributes that hold links,
//! each with where it is in the page's bytes.
//!
//! The page is tokenized by `html5gum`, a tokenizer that follows the
//! WHATWG HTML standard (§13.2.5) state by state: it decodes character
//! references — every named reference of the WHATWG list, numeric ones,
//! the legacy ones written without `;` — in text and in attribute values,
//! knows comments, doctypes, CDATA and bogus comments, and recovers from
//! every error the way a browser does. It hands its results to an
//! *emitter*, one call per piece, with the position of its reader in the
//! input; [`LinkEmitter`] is that emitter. It keeps only what a link
//! finder needs and bounds what it keeps:
//!
//! - text: each piece of text content, with its byte range in the input
//!   (docs/rules.md §6.3), goes to the [`PageVisitor`] as it comes; a tag
//!   is a boundary (a link never spans markup);
//! - the text of `<script>`, `<style>` and the other raw-text elements,
//!   comments and doctypes are dropped as they come (nothing is held);
//! - an attribute value is kept only when its attribute holds links
//!   ([`LINK_ATTRIBUTES`]), and only up to a limit: a value longer than
//!   that is no link anyone follows, and a 100 MB value costs no memory.
//!   Tag and attribute names are kept up to a few bytes (no link attribute
//!   or tag that matters is longer).
//!
//! So memory is bounded whatever the page, and the work is the
//! tokenizer's, linear in the input.

use std::convert::Infallible;
use std::ops::Range;

use html5gum::{Emitter, Error, State, naive_next_state};

/// The attributes whose value is a URL (HTML Living Standard, the index
/// of attributes, and the legacy ones of HTML 4): each is taken as an IRI
/// reference. `srcset` and `ping` hold several.
pub(crate) const LINK_ATTRIBUTES: [&str; 16] = [
    "action",
    "background",
    "cite",
    "codebase",
    "data",
    "formaction",
    "href",
    "icon",
    "longdesc",
    "manifest",
    "ping",
    "poster",
    "profile",
    "src",
    "srcset",
    "usemap",
];

/// The longest tag or attribute name kept: longer names are no element or
/// attribute that matters here, and are kept cut (so they match none).
const NAME_CAP: usize = 16;

/// What the reader of a page is told, in document order.
pub(crate) trait PageVisitor {
    /// A piece of text content, with the input range of its raw bytes;
    /// `verbatim` when the text is those bytes (no reference decoded, no
    /// line break normalized).
    fn text(&mut self, text: &[u8], raw: Range<usize>, verbatim: bool);
    /// A tag, comment or doctype starts: the end of a run of text.
    fn boundary(&mut self);
    /// A link attribute of a start tag: the tag's name, the attribute's,
    /// its value (references decoded) and the input range of the value's
    /// raw bytes; `complete` is false when the value was longer than the
    /// limit and only its start is given.
    fn link(&mut self, tag: &[u8], name: &str, value: &[u8], raw: Range<usize>, complete: bool);
    /// The end of the page, with the work counters: the tokenizer's calls
    /// and the most bytes of attribute values held at once.
    fn end(&mut self, calls: u64, held: usize);
}

/// A small name buffer that keeps the first [`NAME_CAP`] bytes.
#[derive(Default)]
struct Name {
    bytes: [u8; NAME_CAP],
    len: usize,
    cut: bool,
}

impl Name {
    fn clear(&mut self) {
        self.len = 0;
        self.cut = false;
    }

    fn push(&mut self, s: &[u8]) {
        let room = NAME_CAP - self.len;
        let n = s.len().min(room);
        self.bytes[self.len..self.len + n].copy_from_slice(&s[..n]);
        self.len += n;
        self.cut |= n < s.len();
    }

    /// The name, or empty when it was cut (no name that matters is).
    fn get(&self) -> &[u8] {
        if self.cut {
            b""
        } else {
            &self.bytes[..self.len]
        }
    }
}

/// Which token the tokenizer is building.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Current {
    None,
    StartTag,
    EndTag,
    Other,
}

/// The emitter that feeds a [`PageVisitor`] (see the module's docs).
pub(crate) struct LinkEmitter<'i, V> {
    input: &'i [u8],
    visitor: V,
    /// The tokenizer's reader position: bytes of `input` consumed.
    position: usize,
    /// Where the text not yet handed over starts (the end of the last
    /// token or piece of text).
    text_from: usize,
    current: Current,
    tag: Name,
    last_start_tag: Name,
    /// Inside a raw-text element whose text is not text a reader sees.
    skipping: bool,
    /// The current attribute: its name, and whether it is a link one.
    attribute: Name,
    attribute_is_link: bool,
    value: Vec<u8>,
    value_complete: bool,
    value_raw: Range<usize>,
    /// The link attributes of the current start tag, ready when it ends.
    links: Vec<(usize, Vec<u8>, Range<usize>, bool)>,
    value_cap: usize,
    /// Calls from the tokenizer (a work counter for the tests).
    calls: u64,
    /// The most bytes of attribute values held at once.
    held: usize,
}

impl<'i, V: PageVisitor> LinkEmitter<'i, V> {
    /// An emitter for `input` (the bytes the tokenizer reads) that keeps
    /// link attribute values up to `value_cap` bytes.
    pub(crate) fn new(input: &'i [u8], visitor: V, value_cap: usize) -> Self {
        LinkEmitter {
            input,
            visitor,
            position: 0,
            text_from: 0,
            current: Current::None,
            tag: Name::default(),
            last_start_tag: Name::default(),
            skipping: false,
            attribute: Name::default(),
            attribute_is_link: false,
            value: Vec::new(),
            value_complete: true,
            value_raw: 0..0,
            links: Vec::new(),
            value_cap,
            calls: 0,
            held: 0,
        }
    }

    /// Ends the current attribute, keeping it when it holds links.
    fn end_attribute(&mut self) {
        if self.attribute_is_link {
            let index = LINK_ATTRIBUTES
                .iter()
                .position(|a| a.as_bytes() == self.attribute.get())
                .unwrap_or(0);
            let value = std::mem::take(&mut self.value);
            // A value without `=` has no raw bytes: it is empty anyway.
            let raw = self.value_raw.clone();
            // Skip duplicates: the first attribute of a name wins (WHATWG).
            if !self.links.iter().any(|(i, ..)| *i == index) {
                self.links.push((index, value, raw, self.value_complete));
                self.held = self
                    .held
                    .max(self.links.iter().map(|(_, v, ..)| v.len()).sum());
            }
        }
        self.attribute.clear();
        self.attribute_is_link = false;
        self.value.clear();
        self.value_complete = true;
        self.value_raw = self.position..self.position;
    }

    /// A token starts: the text before it ends (inside a script or a
    /// style, there is no text, and its end tag is no boundary either).
    fn token_starts(&mut self) {
        if !self.skipping {
            self.visitor.boundary();
        }
    }

    /// A token ended at the current position.
    fn token_ends(&mut self) {
        self.text_from = self.position;
    }
}

/// Reads the page `input` (UTF-8) to its end, telling `visitor` what a
/// reader takes from it; link attribute values are kept up to `value_cap`
/// bytes.
pub(crate) fn read_page<V: PageVisitor>(input: &[u8], visitor: V, value_cap: usize) {
    let emitter = LinkEmitter::new(input, visitor, value_cap);
    // The emitter makes no tokens, and reading a slice never fails.
    let Ok(()) = html5gum::Tokenizer::new_with_emitter(input, emitter).finish();
}

impl<V: PageVisitor> Emitter for LinkEmitter<'_, V> {
    type Token = Infallible;

    fn set_last_start_tag(&mut self, last_start_tag: Option<&[u8]>) {
        self.last_start_tag.clear();
        self.last_start_tag.push(last_start_tag.unwrap_or_default());
    }

    fn emit_eof(&mut self) {
        self.calls += 1;
        self.visitor.end(self.calls, self.held);
    }

    fn emit_error(&mut self, _error: Error) {}

    fn should_emit_errors(&mut self) -> bool {
        false
    }

    fn pop_token(&mut self) -> Option<Infallible> {
        None
    }

    fn emit_string(&mut self, s: &[u8]) {
        self.calls += 1;
        if self.skipping {
            self.text_from = self.position;
            return;
        }
        let end = self.position.min(self.input.len());
        // The piece is the input's bytes when they end here; else (a
        // decoded reference, a normalized line break) it stands for all
        // the bytes read since the last piece.
        let verbatim = end >= s.len() && &self.input[end - s.len()..end] == s;
        let start = if verbatim {
            end - s.len()
        } else {
            self.text_from.min(end)
        };
        self.visitor.text(s, start..end, verbatim);
        self.text_from = end;
    }

    fn init_start_tag(&mut self) {
        self.calls += 1;
        self.token_starts();
        self.current = Current::StartTag;
        self.tag.clear();
        self.links.clear();
        self.attribute.clear();
        self.attribute_is_link = false;
    }

    fn init_end_tag(&mut self) {
        self.calls += 1;
        self.token_starts();
        self.current = Current::EndTag;
        self.tag.clear();
        self.links.clear();
        self.attribute.clear();
        self.attribute_is_link = false;
    }

    fn init_comment(&mut self) {
        self.calls += 1;
        self.token_starts();
        self.current = Current::Other;
    }

    fn emit_current_tag(&mut self) -> Option<State> {
        self.calls += 1;
        self.end_attribute();
        self.token_ends();
        let name = self.tag.get();
        let current = std::mem::replace(&mut self.current, Current::None);
        if current == Current::EndTag {
            self.skipping = false;
            // An end tag goes back to the data state.
            return Some(State::Data);
        }
        self.last_start_tag.clear();
        self.last_start_tag.push(name);
        let links = std::mem::take(&mut self.links);
        let tag = self.tag.get().to_vec();
        for (index, value, raw, complete) in &links {
            self.visitor
                .link(&tag, LINK_ATTRIBUTES[*index], value, raw.clone(), *complete);
        }
        self.links = links;
        self.links.clear();
        let next = naive_next_state(&tag);
        // Script, style and the raw-text elements hold no text a reader
        // sees; a title's or a textarea's text (RCDATA) is text, and so is
        // everything after `<plaintext>` (docs/rules.md §6.1).
        self.skipping = matches!(next, Some(State::ScriptData | State::RawText));
        next
    }

    fn emit_current_comment(&mut self) {
        self.calls += 1;
        self.current = Current::None;
        self.token_ends();
    }

    fn emit_current_doctype(&mut self) {
        self.calls += 1;
        self.current = Current::None;
        self.token_ends();
    }

    fn set_self_closing(&mut self) {}

    fn set_force_quirks(&mut self) {}

    fn push_tag_name(&mut self, s: &[u8]) {
        self.calls += 1;
        self.tag.push(s);
    }

    fn push_comment(&mut self, _s: &[u8]) {
        self.calls += 1;
    }

    fn push_doctype_name(&mut self, _s: &[u8]) {
        self.calls += 1;
    }

    fn init_doctype(&mut self) {
        self.calls += 1;
        self.token_starts();
        self.current = Current::Other;
    }

    fn init_attribute(&mut self) {
        self.calls += 1;
        self.end_attribute();
    }

    fn init_attribute_value(&mut self) {
        self.calls += 1;
        self.attribute_is_link = self.current == Current::StartTag
            && LINK_ATTRIBUTES
                .iter()
                .any(|a| a.as_bytes() == self.attribute.get());
        // The value starts here: html5gum (0.9 on) calls this at its
        // first byte, after its quote if it is quoted. (0.8 called it one
        // byte late for an unquoted value, which this stepped back over.)
        let start = self.position.min(self.input.len());
        self.value_raw = start..start;
    }

    fn push_attribute_name(&mut self, s: &[u8]) {
        self.calls += 1;
        self.attribute.push(s);
    }

    fn push_attribute_value(&mut self, s: &[u8]) {
        self.calls += 1;
        if !self.attribute_is_link {
            return;
        }
        // The value ends here; it starts at the first byte pushed (the
        // tokenizer may have read the opening quote after the start).
        if self.value.is_empty() && self.value_complete {
            let end = self.position.min(self.input.len());
            let verbatim = end >= s.len() && &self.input[end - s.len()..end] == s;
            if verbatim {
                self.value_raw.start = end - s.len();
            }
        }
        self.value_raw.end = self.position.min(self.input.len());
        let room = self.value_cap.saturating_sub(self.value.len());
        if s.len() > room {
            self.value_complete = false;
            self.value.extend_from_slice(&s[..room]);
        } else {
            self.value.extend_from_slice(s);
        }
    }

    fn set_doctype_public_identifier(&mut self, _value: &[u8]) {}

    fn set_doctype_system_identifier(&mut self, _value: &[u8]) {}

    fn push_doctype_public_identifier(&mut self, _s: &[u8]) {}

    fn push_doctype_system_identifier(&mut self, _s: &[u8]) {}

    fn current_is_appropriate_end_tag_token(&mut self) -> bool {
        self.current == Current::EndTag
            && !self.last_start_tag.get().is_empty()
            && self.tag.get() == self.last_start_tag.get()
    }

    fn move_position(&mut self, offset: isize) {
        self.position = self.position.saturating_add_signed(offset);
    }
}
