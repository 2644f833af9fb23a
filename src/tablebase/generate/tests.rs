use std::collections::HashMap;

use super::*;
use crate::board::Position;
use crate::tablebase::StoredTable;

fn material(s: &str) -> Material {
    Material::parse(s).unwrap()
}

/// Every table `name` needs, generated in memory.
fn tables(name: &str) -> TableSet {
    generate_in_memory(material(name))
}

fn probe(set: &TableSet, fen: &str) -> Value {
    set.probe(&Position::from_fen(fen).unwrap()).unwrap()
}

/// The un-moves, with the mirror rule, find exactly the moves the move generator makes: for
/// every legal entry, its predecessors (with repeats) are the entries with a non-capturing move
/// into it, counted once per move.
#[test]
fn predecessors_match_forward_moves() {
    for name in ["KP-KP", "KP-K", "KN-KB", "KC-KA", "KR-KAB"] {
        let layout = Layout::new(material(name));
        let legal = |idx: u64, side: Color| {
            layout
                .board(&layout.decode(idx))
                .and_then(|b| position(b, side))
        };
        let mut forward: HashMap<(u64, usize), Vec<u64>> = HashMap::new();
        for idx in 0..layout.size() {
            for side in Color::ALL {
                let Some(pos) = legal(idx, side) else {
                    continue;
                };
                for m in pos.legal_moves() {
                    if pos.piece_at(m.to()).is_some() {
                        continue;
                    }
                    let mut child = pos.clone();
                    child.make_move(m);
                    let e = crate::tablebase::table::entry_of(&child);
                    let ci = layout.index_of(&e.board).unwrap();
                    forward.entry((ci, e.side.index())).or_default().push(idx);
                }
            }
        }
        for idx in 0..layout.size() {
            for side in Color::ALL {
                if legal(idx, side).is_none() {
                    continue;
                }
                let p = layout.decode(idx);
                let board = layout.board(&p).unwrap();
                let mover = !side;
                let mut back = Vec::new();
                predecessors(&layout, &p, &board, mover, |q| {
                    let qi = layout.encode(q).unwrap();
                    if legal(qi, mover).is_some() {
                        back.push(qi);
                    }
                });
                let mut ahead = forward.remove(&(idx, side.index())).unwrap_or_default();
                back.sort_unstable();
                ahead.sort_unstable();
                assert_eq!(back, ahead, "{name} entry {idx} {side:?} to move");
            }
        }
    }
}

/// Each table's values follow from its positions' moves (checked forward, without un-moves).
#[test]
fn tables_agree_with_their_moves() {
    // KP-KP: a capture that wins more slowly than the other moves lose (this once made a
    // won position lost). KR-KN: results by the perpetual check rule.
    for name in [
        "KP-K", "KC-K", "KR-KA", "KN-KB", "KPP-K", "KC-KP", "KP-KP", "KR-KN",
    ] {
        let set = tables(name);
        for m in material(name).closure() {
            if let Some(t) = set.get(m) {
                assert_eq!(verify(t, &set), None, "{m}");
            }
        }
    }
}

#[test]
fn generation_is_deterministic() {
    let a = tables("KN-KA");
    let b = tables("KN-KA");
    let m = material("KN-KA");
    assert_eq!(
        a.get(m).unwrap().every_entry(),
        b.get(m).unwrap().every_entry()
    );
}

/// `[red, black]` to move of `[wins, draws, losses]` over a table.
fn tally(set: &TableSet, name: &str) -> [[u64; 3]; 2] {
    set.get(material(name)).unwrap().counts().by_side
}

/// Results every xiangqi endgame book teaches, each from the tables.
#[test]
fn textbook_results() {
    // 单炮不能胜单将: a lone cannon never wins (no screen: the generals cannot face).
    let set = tables("KC-K");
    assert_eq!(tally(&set, "KC-K")[0][0] + tally(&set, "KC-K")[1][2], 0);
    assert_eq!(
        probe(&set, "4k4/9/9/9/9/9/9/9/4C4/3K5 w - - 0 1"),
        Value::Draw
    );

    // 单车胜单将: the rook's side to move always wins.
    let set = tables("KR-K");
    let t = tally(&set, "KR-K");
    assert_eq!(t[0][1] + t[0][2], 0, "{t:?}");

    // 单兵胜单将, unless the pawn is already on the last rank (底兵/老兵, seeds' terminology).
    let set = tables("KP-K");
    assert_eq!(
        probe(&set, "4k4/9/4P4/9/9/9/9/9/9/3K5 w - - 0 1"),
        Value::Win(3)
    );
    assert!(matches!(
        probe(&set, "4k4/9/9/9/9/4P4/9/9/9/3K5 w - - 0 1"),
        Value::Win(_)
    ));
    assert_eq!(
        probe(&set, "P3k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"),
        Value::Draw
    );

    // 单马胜单将.
    let set = tables("KN-K");
    assert!(matches!(
        probe(&set, "4k4/9/9/9/9/9/9/9/9/3K1N3 w - - 0 1"),
        Value::Win(_)
    ));

    // 单车难破士象全: a rook against two advisors and two elephants is a draw from the usual
    // set-up, but wins once an advisor or an elephant is gone (车胜单缺士, 车胜单缺象).
    let set = tables("KR-KAABB");
    assert_eq!(
        probe(&set, "2bakab2/9/9/9/R8/9/9/9/9/3K5 w - - 0 1"),
        Value::Draw
    );
    assert_eq!(
        probe(&set, "2bak1b2/9/9/9/R8/9/9/9/9/3K5 w - - 0 1"),
        Value::Win(33)
    );
    assert!(matches!(
        probe(&set, "2ba1a3/4k4/9/9/R8/9/9/9/9/3K5 w - - 0 1"),
        Value::Win(_)
    ));
}

/// Conversion distances: never beyond the distance to mate, equal to it where no capture keeps
/// the result, and shorter where the winner can capture on the way to the mate.
#[test]
fn conversion_distances() {
    let set = tables("KN-KA");
    for name in ["KN-K", "KN-KA"] {
        let t = set.get(material(name)).unwrap();
        for side in Color::ALL {
            for idx in 0..t.layout.size() {
                let (v, d) = (t.value(side, idx), t.dtc(side, idx).unwrap());
                match v {
                    Some(Value::Win(n) | Value::Loss(n)) => {
                        assert!(d <= n && (d > 0) == (n > 0), "{name} {idx}: {v:?} dtc {d}");
                        // The bare general has nothing to capture but a piece that mates it.
                        if name == "KN-K" {
                            assert_eq!(d, n, "{name} {idx}");
                        }
                    }
                    Some(v) if v.by_rule() => assert_eq!(v.plies(), Some(d)),
                    _ => assert_eq!(d, 0),
                }
            }
        }
    }
    // The horse takes the advisor within 3 plies (the defender cannot avoid it), then mates
    // the bare general: 13 plies to mate, 3 to the capture.
    let pos = Position::from_fen("9/3k5/3a5/9/9/9/1N7/9/9/3K5 w - - 0 1").unwrap();
    assert_eq!(set.probe_dtc(&pos), Some((Value::Win(13), 3)));
}

/// Tables written to a folder and read back are the same tables; a damaged file is refused.
#[test]
fn files_round_trip_and_damage_is_caught() {
    let dir = std::env::temp_dir().join(format!("jiangjun-tb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut made = TableSet::new();
    let mut generated = Vec::new();
    generate_with_captures(material("KR-KA"), Some(&dir), &mut made, &Quiet, |d, _| {
        if let Done::Generated(m) = d {
            generated.push(*m);
        }
    })
    .unwrap();
    // KR-K and KR-KA; K-K and KA-K are dead draws without tables.
    assert_eq!(generated, [material("KR-K"), material("KR-KA")]);
    // A second run reads every table instead of making it again.
    let mut again = TableSet::new();
    let mut read = 0;
    generate_with_captures(material("KR-KA"), Some(&dir), &mut again, &Quiet, |d, _| {
        assert!(matches!(d, Done::Read(_)));
        read += 1;
    })
    .unwrap();
    assert_eq!(read, generated.len());
    for m in &generated {
        assert_eq!(
            made.get(*m).unwrap().every_entry(),
            again.get(*m).unwrap().every_entry()
        );
    }
    // Held in memory or read from the files at each probe, every entry is the one made.
    for memory in [u64::MAX, 0] {
        let mut read = TableSet::with_memory(memory);
        assert!(read.load_dir(&dir).unwrap().is_empty());
        assert_eq!(read.on_demand(), if memory == 0 { read.len() } else { 0 });
        for m in &generated {
            let (a, b) = (made.get(*m).unwrap(), read.get(*m).unwrap());
            assert_eq!(a.every_entry(), b.every_entry(), "{m}");
        }
    }
    let path = dir.join(crate::tablebase::table::file_name(material("KR-KA")));
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    let err = StoredTable::from_bytes(&path, &bytes)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("checksum"), "{err}");
    let err = StoredTable::from_bytes(&path, &bytes[..40])
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("cut short"), "{err}");
    // A file of format version 1 (no conversion distances) is refused as such, and a run
    // makes it again.
    bytes[4] = 1;
    std::fs::write(&path, &bytes).unwrap();
    let err = StoredTable::from_bytes(&path, &bytes)
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("format version 1") && err.contains("generate it again"),
        "{err}"
    );
    let mut again = TableSet::new();
    generate_with_captures(material("KR-KA"), Some(&dir), &mut again, &Quiet, |_, _| {}).unwrap();
    let m = material("KR-KA");
    let written = StoredTable::from_bytes(&path, &std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(written.every_entry(), made.get(m).unwrap().every_entry());
    assert_eq!(
        again.get(m).unwrap().every_entry(),
        made.get(m).unwrap().every_entry()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run whose budget holds no finished table leaves each one in its file and reads it from
/// there while making the next: the same tables as a run that holds them all.
#[test]
fn a_run_past_its_budget_reads_finished_tables_from_their_files() {
    let dir = std::env::temp_dir().join(format!("jiangjun-tb-budget-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut lean = TableSet::with_memory(0);
    generate_with_captures(material("KR-KA"), Some(&dir), &mut lean, &Quiet, |_, _| {}).unwrap();
    assert_eq!(lean.memory_held(), 0);
    assert_eq!(lean.on_demand(), 2, "KR-K and KR-KA, both from their files");
    let held = tables("KR-KA");
    for m in ["KR-K", "KR-KA"].map(material) {
        assert_eq!(
            lean.get(m).unwrap().every_entry(),
            held.get(m).unwrap().every_entry(),
            "{m}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
