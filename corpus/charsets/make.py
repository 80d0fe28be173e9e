#!/usr/bin/env python3
"""Builds the charset corpus from its UTF-8 twins.

Run from anywhere:  python3 corpus/charsets/make.py

For every twin `STEM.ENC.utf8.txt` in this directory, writes `STEM.ENC.txt`:
the same text encoded with Python's codec for ENC (errors="strict", so a
character the charset cannot encode stops the build instead of being
replaced). The UTF-16 files get a byte order mark.

Then writes the malformed files (MALFORMED below): each is assembled from
encoded text and literal bad bytes, and its twin is written next to it with
the U+FFFD characters (and reprocessed bytes) that the WHATWG Encoding
Standard's decoder produces for those bytes. Those twins were derived by
hand from the standard's decoder algorithms; the Rust tests check them
against encoding_rs.
"""

import pathlib
import sys
import unicodedata

HERE = pathlib.Path(__file__).resolve().parent

# WHATWG name in the file name -> (Python codec, BOM).
CODECS = {
    "utf-8": ("utf-8", b""),
    "utf-16le": ("utf-16-le", b"\xff\xfe"),
    "utf-16be": ("utf-16-be", b"\xfe\xff"),
    # WHATWG's Shift_JIS, Big5 and EUC-KR are Microsoft's supersets.
    "shift_jis": ("cp932", b""),
    "euc-jp": ("euc_jp", b""),
    "iso-2022-jp": ("iso2022_jp", b""),
    "gb18030": ("gb18030", b""),
    "big5": ("cp950", b""),
    "euc-kr": ("cp949", b""),
    "koi8-r": ("koi8_r", b""),
    "windows-1250": ("cp1250", b""),
    "windows-1251": ("cp1251", b""),
    "windows-1252": ("cp1252", b""),
    "windows-1253": ("cp1253", b""),
    "windows-1255": ("cp1255", b""),
    "windows-1256": ("cp1256", b""),
    "windows-874": ("cp874", b""),
    "iso-8859-2": ("iso8859_2", b""),
}

FFFD = "\ufffd"


def enc(text, codec):
    return text.encode(codec, errors="strict")


# name -> list of parts; a part is (text, codec) for good text, or
# (bytes, expected text) for malformed bytes and what a WHATWG decoder
# makes of them.
MALFORMED = {
    # A Shift_JIS lead byte cut off at the end: one U+FFFD.
    "bad-truncated.shift_jis": [
        ("途中で切れたファイルです。最後のリンク: http://example.jp/最後 の後に", "cp932"),
        (b"\x82", FFFD),
    ],
    # EUC-JP: 0xFF is never valid (one U+FFFD); a lead byte followed by an
    # ASCII byte is an error and the ASCII byte is reprocessed (U+FFFD, "h").
    "bad-middle.euc-jp": [
        ("壊れたバイト列の例です。", "euc_jp"),
        (b"\xff", FFFD),
        ("次の行は正常です。\nリンク:", "euc_jp"),
        (b"\xa4h", FFFD + "h"),
        ("ttp://example.jp/あ は読めるはず。\n", "euc_jp"),
    ],
    # UTF-8 (not transcoded, counted): an invalid pair, a lone continuation
    # byte, a truncated three-byte sequence at the end.
    "bad.utf-8": [
        ("Ungültige Bytes: ", "utf-8"),
        (b"\xc3\x28", FFFD + "("),
        (" und ", "utf-8"),
        (b"\x80", FFFD),
        (" http://example.de/straße ", "utf-8"),
        (b"\xe6\x97", FFFD),
    ],
    # UTF-16LE with BOM: a high surrogate followed by "A", a lone low
    # surrogate, an odd byte at the end.
    "bad.utf-16le": [
        (b"\xff\xfe", ""),
        ("Surrogates: ", "utf-16-le"),
        (b"\x3d\xd8", FFFD),
        ("A", "utf-16-le"),
        (b"\x00\xdc", FFFD),
        (" http://example.org/😀 ", "utf-16-le"),
        (b"\x41", FFFD),
    ],
    # ISO-2022-JP: an invalid escape sequence (U+FFFD for the ESC, then "("
    # and "Z" as ASCII); an escape sequence directly followed by another
    # (the first is an error); a byte above 0x7F in ASCII mode.
    "bad.iso-2022-jp": [
        ("Escapes: ", "iso2022_jp"),
        (b"\x1b(Z", FFFD + "(Z"),
        (" ", "iso2022_jp"),
        (b"\x1b$B\x1b(B", FFFD),
        ("http://example.jp/検索 ", "iso2022_jp"),
        (b"\x80", FFFD),
        (" end\n", "iso2022_jp"),
    ],
    # gb18030: a four-byte sequence broken at its fourth byte: U+FFFD for the
    # first byte, the second (a digit) as ASCII, then the third and fourth
    # read again as a two-byte code (0x81 0x41).
    "bad.gb18030": [
        ("四字节序列损坏：", "gb18030"),
        (b"\x81\x30\x81\x41", FFFD + "0" + b"\x81\x41".decode("gb18030")),
        ("，后面正常 http://example.cn/正常\n", "gb18030"),
    ],
}


def main():
    written = []
    for twin in sorted(HERE.glob("*.utf8.txt")):
        stem = twin.name[: -len(".utf8.txt")]
        if stem in MALFORMED:
            continue
        name = stem.rsplit(".", 1)[1]
        codec, bom = CODECS[name]
        text = twin.read_text(encoding="utf-8")
        assert unicodedata.is_normalized("NFC", text), twin.name
        out = HERE / f"{stem}.txt"
        out.write_bytes(bom + enc(text, codec))
        written.append(out.name)
    for stem, parts in MALFORMED.items():
        raw, text = b"", ""
        for a, b in parts:
            if isinstance(a, bytes):
                raw += a
                text += b
            else:
                raw += enc(a, b)
                text += a
        (HERE / f"{stem}.txt").write_bytes(raw)
        (HERE / f"{stem}.utf8.txt").write_text(text, encoding="utf-8")
        written.append(f"{stem}.txt")
    for name in written:
        print(name, (HERE / name).stat().st_size, "bytes")


if __name__ == "__main__":
    sys.exit(main())
