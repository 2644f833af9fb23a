//! The character encoding of a game file. Chinese game files in the wild are GBK/GB18030
//! (mainland) or Big5 (Taiwan, Hong Kong) at least as often as UTF-8, and say nothing about
//! which. [`decode`] takes a byte-order mark, else valid UTF-8, else whichever of GB18030
//! and Big5 decodes without errors and reads best as game records: a wrong guess still
//! decodes (both are dense double-byte codes) but yields characters no notation knows, so the
//! number of moves that read, then the number of notation characters, tells them apart.

use super::pgn;
use encoding_rs::{Encoding, BIG5, GB18030, GBK, UTF_16BE, UTF_16LE, UTF_8};
use std::fmt;

/// An encoding a game file can be read in.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum TextEncoding {
    Utf8,
    Utf16Le,
    Utf16Be,
    /// GB18030, the superset of GBK and GB2312.
    Gb18030,
    /// GBK, read as GB18030 (which extends it) but named as asked.
    Gbk,
    Big5,
}

impl TextEncoding {
    /// Every encoding, in the order error messages list them.
    pub const ALL: [TextEncoding; 6] = [
        TextEncoding::Utf8,
        TextEncoding::Utf16Le,
        TextEncoding::Utf16Be,
        TextEncoding::Gb18030,
        TextEncoding::Gbk,
        TextEncoding::Big5,
    ];

    /// The encoding a command-line name asks for (`utf-8`, `gb18030`, `gbk`, `gb2312`,
    /// `big5`, `utf-16le`, `utf-16be`; any case, `_` for `-`).
    pub fn from_name(name: &str) -> Option<TextEncoding> {
        Some(
            match name.trim().to_ascii_lowercase().replace('_', "-").as_str() {
                "utf-8" | "utf8" => TextEncoding::Utf8,
                "utf-16le" | "utf16le" => TextEncoding::Utf16Le,
                "utf-16be" | "utf16be" => TextEncoding::Utf16Be,
                "gb18030" => TextEncoding::Gb18030,
                "gbk" | "gb2312" | "cp936" => TextEncoding::Gbk,
                "big5" | "big-5" | "cp950" => TextEncoding::Big5,
                _ => return None,
            },
        )
    }

    /// The name as [`TextEncoding::from_name`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            TextEncoding::Utf8 => "utf-8",
            TextEncoding::Utf16Le => "utf-16le",
            TextEncoding::Utf16Be => "utf-16be",
            TextEncoding::Gb18030 => "gb18030",
            TextEncoding::Gbk => "gbk",
            TextEncoding::Big5 => "big5",
        }
    }

    fn codec(self) -> &'static Encoding {
        match self {
            TextEncoding::Utf8 => UTF_8,
            TextEncoding::Utf16Le => UTF_16LE,
            TextEncoding::Utf16Be => UTF_16BE,
            TextEncoding::Gb18030 => GB18030,
            TextEncoding::Gbk => GBK,
            TextEncoding::Big5 => BIG5,
        }
    }

    /// `text` in this encoding (what the tests use to make files; unmappable characters
    /// become numeric character references, as `encoding_rs` does).
    pub fn encode(self, text: &str) -> Vec<u8> {
        match self {
            // encoding_rs encodes only to ASCII-compatible encodings.
            TextEncoding::Utf16Le => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
            TextEncoding::Utf16Be => text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
            _ => self.codec().encode(text).0.into_owned(),
        }
    }
}

impl fmt::Display for TextEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name [`TextEncoding::from_name`] does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownEncoding(pub String);

impl fmt::Display for UnknownEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = TextEncoding::ALL.iter().map(|e| e.name()).collect();
        write!(
            f,
            "unknown encoding '{}' (expected {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownEncoding {}

/// The command line's `--encoding` word, read by [`TextEncoding::from_name`]: the one list of
/// names.
impl std::str::FromStr for TextEncoding {
    type Err = UnknownEncoding;

    fn from_str(s: &str) -> Result<TextEncoding, UnknownEncoding> {
        TextEncoding::from_name(s).ok_or_else(|| UnknownEncoding(s.to_string()))
    }
}

/// How the encoding was chosen.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Detection {
    /// Asked for by the caller.
    Forced,
    /// A byte-order mark.
    Bom,
    /// The bytes are valid UTF-8.
    ValidUtf8,
    /// The best-reading of GB18030 and Big5.
    Guessed,
}

/// Decoded text and how it was decoded.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Decoded {
    pub text: String,
    pub encoding: TextEncoding,
    pub detection: Detection,
    /// Some bytes were not valid in the encoding and became U+FFFD.
    pub had_errors: bool,
}

/// Decodes a game file's bytes: in `forced` if given, else as the module docs say. Never
/// fails: undecodable bytes become U+FFFD (and `had_errors` says so).
pub fn decode(bytes: &[u8], forced: Option<TextEncoding>) -> Decoded {
    match detection(bytes, true, forced) {
        Detected::Guessed(d) => d,
        Detected::Known(encoding, Detection::ValidUtf8, _) => Decoded {
            text: String::from_utf8_lossy(bytes).into_owned(),
            encoding,
            detection: Detection::ValidUtf8,
            had_errors: false,
        },
        Detected::Known(encoding, detection, bom) => decoded(&bytes[bom..], encoding, detection),
    }
}

/// What [`detection`] found: an encoding known from the bytes' form (with the length of a
/// byte-order mark to skip), or the better of two guesses, already decoded.
enum Detected {
    Known(TextEncoding, Detection, usize),
    Guessed(Decoded),
}

/// How many leading bytes of a file encoding detection reads when the file is read as a
/// stream ([`detect`] with `complete` false): all of a file this size or smaller, so that
/// what is decided for it is what [`decode`] decides for the whole.
pub const DETECTION_SAMPLE: usize = 4 << 20;

/// The encoding of a game file whose first bytes are `sample` (`complete`: the whole file),
/// how it was chosen, and the length of a byte-order mark to skip. [`decode`]'s rules: a
/// forced encoding, a byte-order mark, valid UTF-8 (a sample may end inside a character),
/// else the better-reading of GB18030 and Big5 (a sample is cut after its last line feed,
/// which is never part of a double-byte character in either).
pub fn detect(
    sample: &[u8],
    complete: bool,
    forced: Option<TextEncoding>,
) -> (TextEncoding, Detection, usize) {
    match detection(sample, complete, forced) {
        Detected::Known(encoding, detection, bom) => (encoding, detection, bom),
        Detected::Guessed(d) => (d.encoding, Detection::Guessed, 0),
    }
}

/// [`detect`], keeping the winning guess's decoded text for [`decode`].
fn detection(sample: &[u8], complete: bool, forced: Option<TextEncoding>) -> Detected {
    let bom = Encoding::for_bom(sample);
    if let Some(enc) = forced {
        // A BOM of the forced encoding is not text.
        let skip = match bom {
            Some((e, len)) if e == enc.codec() => len,
            _ => 0,
        };
        return Detected::Known(enc, Detection::Forced, skip);
    }
    if let Some((codec, len)) = bom {
        let enc = if codec == UTF_16LE {
            TextEncoding::Utf16Le
        } else if codec == UTF_16BE {
            TextEncoding::Utf16Be
        } else {
            TextEncoding::Utf8
        };
        return Detected::Known(enc, Detection::Bom, len);
    }
    let valid_utf8 = match std::str::from_utf8(sample) {
        Ok(_) => true,
        // Cut off inside a character at the end of a sample: valid so far.
        Err(e) => !complete && e.error_len().is_none(),
    };
    if valid_utf8 {
        return Detected::Known(TextEncoding::Utf8, Detection::ValidUtf8, 0);
    }
    let sample = if complete {
        sample
    } else {
        sample
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(sample, |end| &sample[..=end])
    };
    let gb = decoded(sample, TextEncoding::Gb18030, Detection::Guessed);
    let big5 = decoded(sample, TextEncoding::Big5, Detection::Guessed);
    // GB18030 on a tie: the more common of the two.
    Detected::Guessed(if score(&big5) > score(&gb) { big5 } else { gb })
}

/// The characters of a byte stream in one encoding, decoded a block at a time: how a game
/// file is read without being held whole. It ends at the end of the stream, at a read error,
/// or at a line longer than [`MAX_LINE_CHARS`]; [`Chars::take_error`] says which of the last two.
pub struct Chars<R> {
    reader: R,
    decoder: encoding_rs::Decoder,
    block: Vec<u8>,
    text: String,
    pos: usize,
    done: bool,
    line_chars: usize,
    had_errors: bool,
    error: Option<std::io::Error>,
}

/// The longest line a streamed game file may have, in characters: far beyond any real record
/// (a game on one line is a few thousand), and what bounds the memory one line can take.
pub const MAX_LINE_CHARS: usize = 1 << 20;

impl<R: std::io::Read> Chars<R> {
    /// The text of `reader` in `encoding`, no byte-order mark expected (skip it first).
    pub fn new(reader: R, encoding: TextEncoding) -> Chars<R> {
        Chars {
            reader,
            decoder: encoding.codec().new_decoder_without_bom_handling(),
            block: vec![0; 64 << 10],
            text: String::new(),
            pos: 0,
            done: false,
            line_chars: 0,
            had_errors: false,
            error: None,
        }
    }

    /// Some bytes were not valid in the encoding and became U+FFFD.
    pub fn had_errors(&self) -> bool {
        self.had_errors
    }

    /// Why the characters ended early, if they did (taken: asked once).
    pub fn take_error(&mut self) -> Option<std::io::Error> {
        self.error.take()
    }

    /// Decodes the next block; false at the end.
    fn refill(&mut self) -> bool {
        while !self.done {
            let n = loop {
                match self.reader.read(&mut self.block) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        self.error = Some(e);
                        self.done = true;
                        return false;
                    }
                }
            };
            let last = n == 0;
            self.text.clear();
            self.pos = 0;
            let room = self.decoder.max_utf8_buffer_length(n).unwrap_or(4 * n + 16);
            self.text.reserve(room);
            let (_, _, errors) =
                self.decoder
                    .decode_to_string(&self.block[..n], &mut self.text, last);
            self.had_errors |= errors;
            self.done = last;
            if !self.text.is_empty() {
                return true;
            }
        }
        false
    }
}

impl<R: std::io::Read> Iterator for Chars<R> {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        if self.pos >= self.text.len() && !self.refill() {
            return None;
        }
        let c = self.text[self.pos..].chars().next()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line_chars = 0;
        } else {
            self.line_chars += 1;
            if self.line_chars > MAX_LINE_CHARS {
                self.error = Some(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("a line longer than {MAX_LINE_CHARS} characters"),
                ));
                self.done = true;
                self.text.clear();
                self.pos = 0;
                return None;
            }
        }
        Some(c)
    }
}

fn decoded(bytes: &[u8], enc: TextEncoding, detection: Detection) -> Decoded {
    let (text, had_errors) = enc.codec().decode_without_bom_handling(bytes);
    Decoded {
        text: text.into_owned(),
        encoding: enc,
        detection,
        had_errors,
    }
}

/// How well a candidate reads: decodes cleanly, then moves read, then notation characters.
fn score(d: &Decoded) -> (bool, usize, usize) {
    (
        !d.had_errors,
        pgn::read_pgn(&d.text).moves_read(),
        notation_chars(&d.text),
    )
}

/// Characters of Chinese move notation and results, in both scripts.
const NOTATION: &str =
    "车車俥马馬傌相象仕士帅帥将將炮砲包兵卒进進退平前后後中一二三四五六七八九红紅黑胜勝负負和";

fn notation_chars(text: &str) -> usize {
    text.chars().filter(|c| NOTATION.contains(*c)).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "[Game \"Chinese Chess\"]\n[Event \"第八屆銀荔杯象棋全國冠軍賽\"]\n\
        [Red \"胡榮華\"]\n[Result \"1-0\"]\n\
        1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ 3. 車一平二 卒７進１ 1-0\n";

    #[test]
    fn each_encoding_is_detected_and_reads_the_game() {
        for enc in [
            TextEncoding::Utf8,
            TextEncoding::Gb18030,
            TextEncoding::Big5,
        ] {
            let bytes = enc.encode(GAME);
            let d = decode(&bytes, None);
            assert_eq!(d.encoding, enc, "{enc}");
            assert_eq!(d.text, GAME, "{enc}");
            assert!(!d.had_errors);
            let games = pgn::parse_pgn(&d.text).expect("reads");
            assert_eq!(games[0].moves.len(), 6);
        }
    }

    #[test]
    fn boms_and_forced_encodings() {
        let mut bytes = vec![0xFF, 0xFE];
        bytes.extend(TextEncoding::Utf16Le.encode(GAME));
        let d = decode(&bytes, None);
        assert_eq!(
            (d.encoding, d.detection),
            (TextEncoding::Utf16Le, Detection::Bom)
        );
        assert_eq!(d.text, GAME);
        let mut bytes = vec![0xEF, 0xBB, 0xBF];
        bytes.extend(GAME.as_bytes());
        let d = decode(&bytes, None);
        assert_eq!(
            (d.encoding, d.detection),
            (TextEncoding::Utf8, Detection::Bom)
        );
        assert_eq!(d.text, GAME);
        let d = decode(&bytes, Some(TextEncoding::Utf8));
        assert_eq!(d.text, GAME, "the BOM of the forced encoding is dropped");

        // Forcing the wrong encoding is obeyed: the text is garbage, not an error.
        let big5 = TextEncoding::Big5.encode(GAME);
        let d = decode(&big5, Some(TextEncoding::Gbk));
        assert_eq!(
            (d.encoding, d.detection),
            (TextEncoding::Gbk, Detection::Forced)
        );
        assert_ne!(d.text, GAME);
        assert_eq!(decode(&big5, Some(TextEncoding::Big5)).text, GAME);
    }

    #[test]
    fn names_round_trip() {
        for enc in TextEncoding::ALL {
            assert_eq!(TextEncoding::from_name(enc.name()), Some(enc));
            assert_eq!(enc.name().parse::<TextEncoding>(), Ok(enc));
        }
        let e = "ebcdic".parse::<TextEncoding>().expect_err("unknown");
        assert_eq!(
            e.to_string(),
            "unknown encoding 'ebcdic' (expected utf-8, utf-16le, utf-16be, gb18030, gbk, big5)"
        );
        assert_eq!(TextEncoding::from_name("GB2312"), Some(TextEncoding::Gbk));
        assert_eq!(TextEncoding::from_name("latin1"), None);
    }

    #[test]
    fn any_bytes_decode() {
        let mut x = 0x1234_5678u32;
        for len in 0..300 {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    x as u8
                })
                .collect();
            let _ = decode(&bytes, None);
        }
    }
}
