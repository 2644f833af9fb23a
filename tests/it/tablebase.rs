//! Endgame tablebases: `jiangjun tb` run as a user runs it, and the tables held against the
//! engine's own search.

use crate::cli_support::{run, temp_folder};
use jiangjun::board::{Color, Position};
use jiangjun::tablebase::generate::generate_in_memory;
use jiangjun::tablebase::{Material, Value};

/// `tb list` names the tables a set needs in the order they are made, with their sizes: the
/// one-attacker set with defenders on both sides is 324 tables of 3 to 11 pieces.
#[test]
fn list_names_the_tables_fewest_pieces_first() {
    let (code, out, err) = run(&["tb", "list", "kr-ka", "KC-K", "KA-KB"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "KC-K 3 9720\nKR-K 3 9720\nKR-KA 4 48600\ntotal: 3 tables, 68040 entries\n"
    );
    let set = [
        "KRAABB-KAABB",
        "KNAABB-KAABB",
        "KCAABB-KAABB",
        "KPAABB-KAABB",
    ];
    let (code, out, _) = run(&[&["tb", "list"][..], &set[..]].concat());
    assert_eq!(code, 0);
    assert_eq!(
        out.lines().last(),
        Some("total: 324 tables, 7556889600 entries")
    );
    let pieces: Vec<u32> = out
        .lines()
        .filter(|l| !l.starts_with("total:"))
        .filter_map(|l| l.split(' ').nth(1)?.parse().ok())
        .collect();
    assert!(pieces.windows(2).all(|w| w[0] <= w[1]), "{out}");
    assert_eq!((pieces[0], pieces[pieces.len() - 1]), (3, 11));
    let (code, _, err) = run(&["tb", "list", "KRRNNC-KPPPP"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("tables hold at most"), "{err}");
}

#[test]
fn generate_then_probe() {
    let dir = temp_folder("tb", "probe");
    let d = dir.to_string_lossy().into_owned();
    let (code, out, err) = run(&["tb", "generate", "kr-ka", "KC-K", "KA-KB", "--dir", &d]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with("KR-K: 5832 positions, "), "{out}");
    assert!(lines[1].starts_with("KR-KA: "), "{out}");
    assert!(
        lines[2].starts_with("KC-K: 6552 positions, 0 wins 6552 draws 0 losses"),
        "{out}"
    );
    assert!(lines[3].starts_with("KA-KB: no table needed"), "{out}");
    // A second run finds the tables made.
    let (code, out, _) = run(&["tb", "generate", "KR-KA", "--dir", &d]);
    assert_eq!(code, 0);
    assert!(out.lines().all(|l| l.contains("already in")), "{out}");

    // Black holds the rook here: the table is read through the colour-flipped position.
    let (code, out, err) = run(&[
        "tb",
        "probe",
        "--fen",
        "r3k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 1",
        "--dir",
        &d,
    ]);
    assert_eq!(code, 0, "{err}");
    let mut lines = out.lines();
    let first = lines.next().unwrap();
    assert!(
        first.starts_with("win dtm ") && first.contains(" dtc "),
        "{out}"
    );
    // The best move comes first and keeps the value; every legal move is listed; the
    // conversion distance is the least of the winning moves'.
    let best = lines.next().unwrap();
    assert!(best.contains(&format!(" {} dtc ", dtm_of(first))), "{out}");
    let least = out
        .lines()
        .skip(1)
        .filter(|l| l.contains(" win dtm "))
        .filter_map(dtc_of)
        .min();
    assert_eq!(dtc_of(first), least, "{out}");
    let pos = Position::from_fen("r3k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 1").unwrap();
    assert_eq!(out.lines().count(), 1 + pos.legal_moves().len());
    let (code, out, _) = run(&[
        "tb",
        "probe",
        "--fen",
        "4k4/9/9/9/9/9/9/9/4C4/3K5 w - - 0 1",
        "--dir",
        &d,
    ]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().next(), Some("draw"));

    // Random won positions: each one the tables call won for the side to move; the same seed
    // gives the same ones.
    let sample = |seed: &str| {
        run(&[
            "tb", "sample", "KR-KA", "--dir", &d, "--count", "5", "--seed", seed,
        ])
    };
    let (code, fens, err) = sample("3");
    assert_eq!(code, 0, "{err}");
    assert_eq!(fens.lines().count(), 5, "{fens}");
    assert_eq!(sample("3").1, fens);
    assert_ne!(sample("4").1, fens);
    for fen in fens.lines() {
        let (_, out, _) = run(&["tb", "probe", "--fen", fen, "--dir", &d]);
        assert!(out.starts_with("win dtm "), "{fen}: {out}");
    }
    let (code, _, _) = run(&["tb", "sample", "KR-KA", "--dir", &d, "--value", "won"]);
    assert_eq!(code, 2);

    let (code, out, _) = run(&["tb", "verify", "KR-KA", "--dir", &d]);
    assert_eq!((code, out.as_str()), (0, "KR-K: ok\nKR-KA: ok\n"));
    // A table several materials need is verified once.
    let (code, out, _) = run(&["tb", "verify", "KR-K", "KR-KA", "KR-KA", "--dir", &d]);
    assert_eq!((code, out.as_str()), (0, "KR-K: ok\nKR-KA: ok\n"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_answered_with_status_2() {
    let dir = temp_folder("tb", "bad");
    let d = dir.to_string_lossy().into_owned();
    let rook_probe = [
        "tb",
        "probe",
        "--fen",
        "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1",
        "--dir",
        &d,
    ];
    for args in [
        vec!["tb", "generate", "KX-K", "--dir", &d],
        vec!["tb", "generate", "KR", "--dir", &d],
        vec!["tb", "generate", "KR-K", "--dir", &d, "--threads", "0"],
        vec!["tb", "probe", "--fen", "not a fen", "--dir", &d],
        rook_probe.to_vec(),
        vec!["tb", "generate"],
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // A missing table is named, with the command that makes it.
    let (_, _, err) = run(&rook_probe);
    assert!(
        err.contains("KR-K.jjtb") && err.contains("jiangjun tb generate KR-K"),
        "{err}"
    );
    // A damaged file is refused by name, and so is one of format version 1 (before conversion
    // distances) or 2 (before the chase rules), with what to do; `tb generate` makes that one
    // again.
    let refused = |file: &[u8], says: &[&str]| {
        std::fs::write(dir.join("KR-K.jjtb"), file).unwrap();
        let (code, _, err) = run(&rook_probe);
        assert_eq!(code, 2);
        assert!(says.iter().all(|s| err.contains(s)), "{err}");
    };
    refused(b"JJTB\x03\x00", &["KR-K.jjtb", "cut short"]);
    refused(
        b"JJTB\x01\x00\x01\x00",
        &["KR-K.jjtb: format version 1", "generate it again"],
    );
    refused(
        b"JJTB\x02\x00\x01\x00",
        &["KR-K.jjtb: format version 2", "perpetual chases"],
    );
    let (code, out, err) = run(&["tb", "generate", "KR-K", "--dir", &d]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("KR-K: 5832 positions"), "{out}");
    assert_eq!(run(&rook_probe).0, 0);
    std::fs::remove_dir_all(&dir).unwrap();
}
/// Where the engine's search proves a mate in random positions, the tables agree: the side
/// the search says mates wins in the table, no slower than the search's mate, and the side it
/// says is mated loses.
#[test]
fn tables_agree_with_the_search_where_it_finds_mates() {
    use jiangjun::engine::Engine;
    use jiangjun::search::limits::Limits;
    use jiangjun::search::score::{decisive_plies, is_mate};
    let mut checked = 0;
    for name in ["KR-KA", "KP-K", "KN-K"] {
        let set = generate_in_memory(material(name));
        let t = set.get(material(name)).unwrap();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut tried = 0;
        while tried < 40 {
            seed = jiangjun::board::zobrist::mix64(seed);
            let idx = seed % t.layout.size();
            let side = Color::ALL[(seed >> 40) as usize % 2];
            let Some(pos) = t
                .layout
                .board(&t.layout.decode(idx))
                .and_then(|b| position(b, side))
            else {
                continue;
            };
            if !pos.has_legal_move() {
                continue;
            }
            tried += 1;
            let mut engine = Engine::new();
            engine.set_hash_mb(16);
            engine.set_threads(1);
            engine.set_use_book(false);
            engine.set_game(pos.clone(), &[]).unwrap();
            let result = engine.search_blocking(
                Limits {
                    depth: Some(14),
                    ..Limits::default()
                },
                |_| {},
            );
            if !is_mate(result.score) {
                continue;
            }
            let k = decisive_plies(result.score).unwrap() as u16;
            let value = set.probe(&pos).unwrap();
            let fen = pos.to_fen();
            if result.score > 0 {
                assert!(
                    matches!(value, Value::Win(n) if n <= k),
                    "{fen}: search mates in {k}, table {value}"
                );
            } else {
                assert!(
                    matches!(value, Value::Loss(_)),
                    "{fen}: search is mated in {k}, table {value}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} mates found");
}

/// `win dtm 5` of a `tb probe` line `[MOVE ]win dtm 5 dtc 3`.
fn dtm_of(line: &str) -> &str {
    let at = line.find("win dtm").or(line.find("loss dtm")).unwrap_or(0);
    line[at..].split(" dtc").next().unwrap_or("")
}

/// The conversion distance of a `tb probe` line, if it has one.
fn dtc_of(line: &str) -> Option<u32> {
    line.split(" dtc ").nth(1)?.parse().ok()
}

fn material(s: &str) -> Material {
    Material::parse(s).unwrap()
}

fn position(board: jiangjun::tablebase::index::Board, side: Color) -> Option<Position> {
    Position::from_placement(board, side, 0, 1).ok()
}

/// The engine's answer to `lines` (UCCI or UCI commands), all its output.
fn engine_says(lines: &str) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_jiangjun"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("engine starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(lines.as_bytes())
        .unwrap();
    let out = child.wait_with_output().expect("engine ends");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The move of the engine's last line, `bestmove MOVE ...`.
fn bestmove(out: &str) -> String {
    let last = out.lines().last().unwrap_or("");
    assert!(last.starts_with("bestmove "), "{out}");
    last.split(' ').nth(1).unwrap_or("").to_string()
}

/// With `tbpath` set the search reads the tables: a won position is played by the table's
/// fastest mate with its distance, tbhits in UCI's info lines; a drawn one (a rook against
/// 士象全) is reported as 0, not as a rook up, and its move keeps the draw.
#[test]
fn the_engine_plays_and_scores_by_the_tables() {
    let dir = temp_folder("tb", "engine");
    let d = dir.to_string_lossy().into_owned();
    let (code, _, err) = run(&["tb", "generate", "KR-KAABB", "--dir", &d]);
    assert_eq!(code, 0, "{err}");

    let won = "2bak1b2/9/9/9/R8/9/9/9/9/3K5 w - - 0 1";
    let out = engine_says(&format!(
        "uci\nsetoption name TablebasePath value {d}/no-such-folder\n\
         setoption name TablebasePath value {d}\nsetoption name OwnBook value false\n\
         position fen {won}\ngo depth 4\n"
    ));
    let last_info = out.lines().rfind(|l| l.starts_with("info depth")).unwrap();
    assert!(out.contains("no-such-folder: No such file"), "{out}");
    // Win in 33 plies: mate in 17 moves.
    assert!(last_info.contains(" score mate 17 "), "{out}");
    assert!(last_info.contains(" tbhits "), "{out}");
    let best = bestmove(&out);
    let (_, probe, _) = run(&["tb", "probe", "--fen", won, "--dir", &d]);
    let first = probe.lines().next().unwrap();
    assert!(
        probe
            .lines()
            .any(|l| l.starts_with(&format!("{best} {} dtc ", dtm_of(first)))),
        "{best} is not a fastest win:\n{probe}"
    );

    let drawn = "2bakab2/9/9/9/R8/9/9/9/9/3K5 w - - 0 1";
    let out = engine_says(&format!(
        "ucci\nsetoption egtbpaths {d}\nsetoption usebook false\nposition fen {drawn}\ngo depth 8\n"
    ));
    assert!(out.contains("info string tbpath: "), "{out}");
    let infos: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(
        !infos.is_empty() && infos.iter().all(|l| l.contains(" score 0 ")),
        "{out}"
    );
    let best = bestmove(&out);
    let (_, probe, _) = run(&["tb", "probe", "--fen", drawn, "--dir", &d]);
    assert!(
        probe.lines().any(|l| l == format!("{best} draw")),
        "{best} does not hold the draw:\n{probe}"
    );
    // useegtb false: the tables stay loaded and unread, and the rook looks like a rook up.
    let out = engine_says(&format!(
        "ucci\nsetoption egtbpaths {d}\nsetoption useegtb false\nsetoption usebook false\n\
         position fen {drawn}\ngo depth 8\n"
    ));
    let last = out.lines().rfind(|l| l.starts_with("info depth")).unwrap();
    assert!(!last.contains(" score 0 "), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `tbmemory` (UCI `TablebaseMemory`) is the memory the tables' entries may take: set after
/// `tbpath`, the tables are read again under it; with 0 every table is read from its file at
/// each probe, and the search still plays by them. A folder that could not be read is not
/// read again.
#[test]
fn the_tables_memory_option_reads_them_again_under_its_budget() {
    let dir = temp_folder("tb", "memory");
    let d = dir.to_string_lossy().into_owned();
    let (code, _, err) = run(&["tb", "generate", "KR-KA", "--dir", &d]);
    assert_eq!(code, 0, "{err}");
    let won = "3k5/4a4/9/9/R8/9/9/9/9/4K4 w - - 0 1";
    let out = engine_says(&format!(
        "ucci\nsetoption tbpath {d}\nsetoption tbmemory 0\nsetoption usebook false\n\
         position fen {won}\ngo depth 3\n"
    ));
    let said: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info string tbpath"))
        .collect();
    assert_eq!(said.len(), 2, "{out}");
    assert!(!said[0].contains("read from their files"), "{out}");
    assert!(
        said[1].ends_with(&format!(
            "2 endgame tables from {d}, 2 read from their files at each probe"
        )),
        "{out}"
    );
    let last_info = out.lines().rfind(|l| l.starts_with("info depth")).unwrap();
    assert!(last_info.contains(" score mate "), "{out}");
    // Without tables, or after a folder that could not be read, the option reads nothing.
    let out = engine_says(&format!(
        "uci\nsetoption name TablebaseMemory value 0\n\
         setoption name TablebasePath value {d}/no-such-folder\n\
         setoption name TablebaseMemory value 64\nisready\n"
    ));
    assert_eq!(out.matches("tbpath").count(), 1, "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Where the only way to hold is perpetual check, the tables say the checking side loses
/// (2011 rules 25.1), and the referee rules the same cycle the same way. In this rook against
/// horse ending the horse can only check 帅 back and forth (b1, c3) while the general steps
/// between d0 and d1; every other horse or general move loses by mate.
#[test]
fn perpetual_check_loses_in_the_tables_as_the_referee_rules() {
    let set = generate_in_memory(material("KR-KN"));
    let held = "9/9/4k4/9/9/9/9/9/1n1K5/R8 b - - 0 1";
    let value = |fen: &str| set.probe(&Position::from_fen(fen).unwrap()).unwrap();
    assert_eq!(value(held), Value::RuleLoss(0));
    // After the check b1c3 the rook's side keeps the cycle with a move that is not a check.
    assert_eq!(
        value("9/9/4k4/9/9/9/2n6/9/3K5/R8 w - - 0 1"),
        Value::RuleWin(1)
    );
    let (code, out, _) = run(&[
        "judge",
        "--fen",
        held,
        "--moves",
        "b1c3 d1d0 c3b1 d0d1 b1c3 d1d0 c3b1 d0d1",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().next(), Some("verdict black_loses 25.1"));
    let t = set.get(material("KR-KN")).unwrap();
    let by_rule = (0..t.layout.size())
        .flat_map(|i| Color::ALL.map(|c| t.value(c, i)))
        .filter(|v| v.is_some_and(|v| v.by_rule()))
        .count();
    assert_eq!(by_rule, 1606);
    assert_eq!(jiangjun::tablebase::generate::verify(t, &set), None);
}

/// In a drawn table position the search's result says 0 too, not only its info lines: the
/// draw and resign decisions read the result, and the side without the rook (its evaluation
/// a rook down) must not resign a draw.
#[test]
fn a_drawn_table_position_is_worth_0_to_the_result() {
    use jiangjun::engine::Engine;
    use jiangjun::search::limits::Limits;
    let set = std::sync::Arc::new(generate_in_memory(material("KR-KAABB")));
    let defender = "2bakab2/9/9/9/R8/9/9/9/9/3K5 b - - 0 1";
    assert_eq!(
        set.probe(&Position::from_fen(defender).unwrap()),
        Some(Value::Draw)
    );
    let mut e = Engine::new();
    e.set_use_book(false);
    e.set_game(Position::from_fen(defender).unwrap(), &[])
        .unwrap();
    let depth = || Limits {
        depth: Some(6),
        ..Limits::default()
    };
    // Without tables the evaluation is far below 0.
    assert!(e.search_blocking(depth(), |_| {}).score < -200);
    e.set_tablebases(Some(set));
    assert_eq!(e.search_blocking(depth(), |_| {}).score, 0);
}

/// Near the natural limit (120 plies without a capture, 2011 rules 4.2.4) a table win counts
/// when its conversion distance fits in the plies left, even where the mate itself is farther:
/// here the horse takes the advisor within 3 plies (the clock starts again) and mates 10 plies
/// later. With 8 plies left the engine reports the mate, 13 plies (7 moves) away; with 2 left
/// the defender holds out until the limit, a draw.
#[test]
fn a_table_win_counts_when_its_conversion_fits_before_the_limit() {
    use jiangjun::engine::Engine;
    use jiangjun::search::limits::Limits;
    use jiangjun::search::score::mate_in;
    let set = std::sync::Arc::new(generate_in_memory(material("KN-KA")));
    let at = |clock: u32| format!("9/3k5/3a5/9/9/9/1N7/9/9/3K5 w - - {clock} 60");
    assert_eq!(
        set.probe_dtc(&Position::from_fen(&at(0)).unwrap()),
        Some((Value::Win(13), 3))
    );
    let score = |clock: u32| {
        let mut e = Engine::new();
        e.set_use_book(false);
        e.set_threads(1);
        e.set_tablebases(Some(set.clone()));
        e.set_game(Position::from_fen(&at(clock)).unwrap(), &[])
            .unwrap();
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        e.search_blocking(limits, |_| {}).score
    };
    assert_eq!(score(112), mate_in(13));
    assert_eq!(score(118), 0);
}

/// The cycle the generator's unit test `a_side_that_can_only_chase_perpetually_is_held` holds
/// the rook's side to (图4 of 第二十六条: the rook chases an unprotected elephant back and
/// forth, the elephant escapes idly) is the one the referee makes the chasing side vary, and
/// lose, under the 2011 rules (25.3).
#[test]
fn the_chase_cycle_the_tables_hold_is_one_the_referee_forbids() {
    let (code, out, _) = run(&[
        "judge",
        "--fen",
        "2bk5/9/9/9/9/9/9/9/4R4/5K3 w - - 0 1",
        "--moves",
        "e1c1 c9e7 c1e1 e7c9 e1c1 c9e7 c1e1 e7c9",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().next(), Some("verdict red_loses 25.3"));
}
