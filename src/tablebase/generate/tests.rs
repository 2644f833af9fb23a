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
    // A file of format version 1 (no conversion distances) or 2 (no chase rules) is refused
    // as such, and a run makes it again.
    for (version, says) in [(1, "without conversion distances"), (2, "perpetual chases")] {
        bytes[4] = version;
        let err = StoredTable::from_bytes(&path, &bytes)
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains(&format!("format version {version}"))
                && err.contains(says)
                && err.contains("generate it again"),
            "{err}"
        );
    }
    std::fs::write(&path, &bytes).unwrap();
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

/// The rook's side of `KR-KB` in the cycle of 图4 of 第二十六条 (the chaser moving back and
/// forth, the chased piece escaping each time): 1. Re1-c1 (捉, the elephant on c9 is
/// unprotected) Ec9-e7 (闲) 2. Rc1-e1 (捉 again) Ee7-c9 (闲). Every position outside the cycle is
/// made a win for the side to move, so that each other move of the rook's side loses and the
/// cycle alone keeps the game going. Returns the layout and the cycle's entries: the two with
/// Red to move, then the two with Black to move.
fn chase_cycle() -> (Layout, [usize; 4]) {
    let layout = Layout::new(material("KR-KB"));
    let entry = |fen: &str| {
        let pos = Position::from_fen(fen).unwrap();
        layout.index_of_position(&pos, false).unwrap() as usize
    };
    let cycle = [
        entry("2bk5/9/9/9/9/9/9/9/4R4/5K3 w - - 0 1"),
        entry("3k5/9/4b4/9/9/9/9/9/2R6/5K3 w - - 0 1"),
        entry("2bk5/9/9/9/9/9/9/9/2R6/5K3 b - - 0 1"),
        entry("3k5/9/4b4/9/9/9/9/9/4R4/5K3 b - - 0 1"),
    ];
    (layout, cycle)
}

/// A state where the cycle's entries listed in `drawn` are draws and every other position a
/// win for the side to move.
fn cycle_state<'a>(layout: &'a Layout, cycle: [usize; 4], drawn: &[usize]) -> State<'a> {
    let size = layout.size() as usize;
    let win = Value::Win(1).code();
    let mut codes = [vec![win; size], vec![win; size]];
    for (i, &e) in cycle.iter().enumerate() {
        if drawn.contains(&i) {
            codes[i / 2][e] = DRAW;
        }
    }
    State {
        layout,
        codes,
        open: [Vec::new(), Vec::new()],
        floor: [Vec::new(), Vec::new()],
    }
}

/// A side that can keep the game going only by chasing, against idle answers, is held: it
/// must vary and loses (2011 rules 24.11, 25.3; 图4 of 第二十六条). Its moves are chases, not
/// checks, so the perpetual check rule alone does not hold it.
#[test]
fn a_side_that_can_only_chase_perpetually_is_held() {
    let (layout, cycle) = chase_cycle();
    let state = cycle_state(&layout, cycle, &[0, 1, 2, 3]);
    let none = TableSet::new();
    let mut held = state.trap(Color::Red, Trap::Forbidden, &none);
    held.sort_unstable();
    let mut expect = vec![cycle[0], cycle[1]];
    expect.sort_unstable();
    assert_eq!(held, expect);
    assert!(state.trap(Color::Red, Trap::Check, &none).is_empty());
    // The elephant's side makes no forbidden move: nothing holds it.
    assert!(state.trap(Color::Black, Trap::Forbidden, &none).is_empty());
}

/// Where the chased side has no idle answer back into the cycle (here: the position after its
/// escape is decided), the chasing side is not held: the rules say nothing of that cycle.
#[test]
fn a_chase_without_an_idle_answer_is_not_held() {
    let (layout, cycle) = chase_cycle();
    let state = cycle_state(&layout, cycle, &[0, 2, 3]);
    assert!(state
        .trap(Color::Red, Trap::Forbidden, &TableSet::new())
        .is_empty());
}

/// A result by the rules found with a longer way into a cycle than its moves give (as when
/// a later round finds a cycle nearer) is settled to what its moves say.
#[test]
fn results_by_the_rules_take_their_quickest_way_into_a_cycle() {
    let (layout, cycle) = chase_cycle();
    let mut state = cycle_state(&layout, cycle, &[]);
    // The rook's side lost by rule in both positions of the cycle; the elephant's side to
    // move, one move from it, recorded as winning only in 7.
    state.codes[0][cycle[1]] = Value::RuleLoss(0).code();
    state.codes[0][cycle[0]] = Value::RuleLoss(0).code();
    state.codes[1][cycle[2]] = Value::RuleWin(7).code();
    state.settle_rule_distances(&TableSet::new());
    assert_eq!(
        Value::from_code(state.codes[1][cycle[2]]),
        Some(Value::RuleWin(1))
    );
}
