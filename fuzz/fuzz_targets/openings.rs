//! Fuzzes the opening readers: the first byte picks one (even: an opening suite read by
//! [`parse_openings`], the `--openings` file of `jiangjun match`, with each of its lines also
//! read alone by [`parse_opening_line`]; odd: a seed-list file of the self-analysis book
//! builder, `book/seeds.txt`, read by [`parse_seeds`]), the rest is its text (UTF-8 with
//! replacement characters).
//!
//! Checked: nothing panics, a bad suite is an error value; every opening accepted replays
//! from its FEN, does not end the game, and is written back (`#name`, then `FEN moves
//! ...`) and read back equal, the suite as a whole too; a seed list keeps every token
//! without blanks or `#`, reads back equal from its lines written out, and each seed line is
//! the opening `startpos moves LINE` exactly when its moves are legal from the start.
#![no_main]

use jiangjun::board::Position;
use jiangjun::tools::book_builder::parse_seeds;
use jiangjun::tournament::openings::{parse_opening_line, parse_openings, Opening};
use libfuzzer_sys::fuzz_target;

/// The line that reads back as `o` (its name goes on the comment line above).
fn line_of(o: &Opening) -> String {
    if o.moves.is_empty() {
        o.fen.clone()
    } else {
        format!("{} moves {}", o.fen, o.moves_text())
    }
}

fn check_opening(o: &Opening) {
    let mut pos = Position::from_fen(&o.fen).unwrap_or_else(|e| panic!("{}: {e}", o.fen));
    assert_eq!(pos.to_fen(), o.fen, "the FEN is kept in its written form");
    for &m in &o.moves {
        assert!(pos.legal_moves().contains(&m), "{}: {m}", line_of(o));
        pos.make_move(m);
    }
    assert!(pos.has_legal_move(), "{}", line_of(o));
    let back = parse_opening_line(&line_of(o), &o.name).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(&back, o);
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    if flags % 2 == 0 {
        for line in text.lines().map(str::trim) {
            if !line.is_empty() && !line.starts_with('#') {
                if let Ok(o) = parse_opening_line(line, "") {
                    check_opening(&o);
                }
            }
        }
        let Ok(suite) = parse_openings(&text) else {
            return;
        };
        assert!(!suite.is_empty());
        let mut written = String::new();
        for o in &suite {
            check_opening(o);
            if !o.name.is_empty() {
                // No blank after `#`: a name may begin with `| `.
                written.push_str(&format!("#{}\n", o.name));
            }
            written.push_str(&line_of(o));
            written.push_str("\n\n");
        }
        assert_eq!(parse_openings(&written).as_ref(), Ok(&suite), "{written}");
    } else {
        let seeds = parse_seeds(&text);
        let mut written = String::new();
        for line in &seeds {
            assert!(!line.is_empty());
            for tok in line {
                assert!(!tok.is_empty() && !tok.contains('#'), "{tok:?}");
                assert!(!tok.chars().any(char::is_whitespace), "{tok:?}");
            }
            written.push_str(&line.join(" "));
            written.push('\n');
            // The builder's own check: each move legal from the start, in order.
            let mut pos = Position::startpos();
            let legal = line.iter().all(|t| match pos.parse_move(t) {
                Ok(m) => {
                    pos.make_move(m);
                    true
                }
                Err(_) => false,
            });
            let as_opening = parse_opening_line(&format!("startpos moves {}", line.join(" ")), "");
            if let Ok(o) = &as_opening {
                check_opening(o);
            }
            if legal && pos.has_legal_move() {
                let o = as_opening.unwrap_or_else(|e| panic!("{line:?}: {e}"));
                assert_eq!(o.moves.len(), line.len(), "{line:?}");
            }
        }
        assert_eq!(parse_seeds(&written), seeds, "{written}");
    }
});
