//! A test double for the match runner: a UCCI/UCI engine that plays random legal moves, and
//! can be told to misbehave. It is not an opponent for real testing, only a fast, predictable
//! partner for `tests/tournament_*.rs`.
//!
//! Flags: `--proto ucci|uci|both` (which handshakes it accepts; a UCCI-only engine exits on
//! anything else like ElephantEye, a UCI-only one complains "Unknown command"), `--fsf`
//! (offer `UCI_Variant` and use ranks 1–10 under UCI, as Fairy-Stockfish does),
//! `--variant-ranks0` (offer `UCI_Variant` but write ranks 0–9, reading a move list with ranks
//! 1–10 when it is illegal with 0–9, as Jiangjun did before it announced `Rank Origin`), `--seed N`,
//! `--crash-after N` (exit on the N-th `go`), `--hang-after N` (from the N-th `go` on, never
//! answer anything), `--illegal-after N` (answer the N-th `go` with an illegal move),
//! `--garbage` (print junk before every answer), `--offer-draw` (append `draw` to every
//! `bestmove`), `--delay MS` (think this long), `--no-millisec` (do not offer usemillisec),
//! `--first` (play the first legal move and predict the first legal reply with `ponder`:
//! two such engines always predict each other). `go ponder` is answered only after
//! `ponderhit` or `stop`, as the protocols ask, unless `--eager-ponder`: then at once, and a
//! `stop` that finds it idle is answered `nobestmove`, as ElephantEye does (it answers a
//! ponder search early when it finds a mate or a single reply). `--deaf-ponder`: a `stop`
//! of a `go ponder` search is never answered (only `ponderhit` is), as an engine stuck in
//! its search on the opponent's time would be.
//! The `go` count restarts with every new game.

use jiangjun::board::{Move, Position, Square};
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::io::{BufRead, Write};
use std::time::Duration;

#[derive(Default)]
struct Flags {
    proto: String,
    fsf: bool,
    variant_ranks0: bool,
    seed: u64,
    crash_after: Option<u32>,
    hang_after: Option<u32>,
    illegal_after: Option<u32>,
    garbage: bool,
    offer_draw: bool,
    delay: u64,
    no_millisec: bool,
    first: bool,
    eager_ponder: bool,
    deaf_ponder: bool,
}

fn parse_flags() -> Flags {
    let mut f = Flags {
        proto: "both".into(),
        seed: std::process::id() as u64,
        ..Flags::default()
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        // Switches take no value.
        let switch = match args[i].as_str() {
            "--fsf" => Some(&mut f.fsf),
            "--variant-ranks0" => Some(&mut f.variant_ranks0),
            "--garbage" => Some(&mut f.garbage),
            "--offer-draw" => Some(&mut f.offer_draw),
            "--no-millisec" => Some(&mut f.no_millisec),
            "--first" => Some(&mut f.first),
            "--eager-ponder" => Some(&mut f.eager_ponder),
            "--deaf-ponder" => Some(&mut f.deaf_ponder),
            _ => None,
        };
        if let Some(on) = switch {
            *on = true;
            i += 1;
            continue;
        }
        let next = args.get(i + 1).cloned().unwrap_or_default();
        let n = || next.parse::<u64>().unwrap_or(0);
        match args[i].as_str() {
            "--proto" => f.proto = next.clone(),
            "--seed" => f.seed = n(),
            "--crash-after" => f.crash_after = Some(n() as u32),
            "--hang-after" => f.hang_after = Some(n() as u32),
            "--illegal-after" => f.illegal_after = Some(n() as u32),
            "--delay" => f.delay = n(),
            _ => {}
        }
        i += 2;
    }
    f
}

/// Converts a 1-based-rank move (`h3e3`, `h10g8`) to ICCS.
fn from_one_based(s: &str) -> String {
    let mut out = String::new();
    let mut digits = String::new();
    for c in s.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            if !digits.is_empty() {
                let r: u32 = digits.parse().unwrap_or(1);
                out.push_str(&(r.saturating_sub(1)).to_string());
                digits.clear();
            }
            out.push(c);
        }
    }
    if !digits.is_empty() {
        let r: u32 = digits.parse().unwrap_or(1);
        out.push_str(&(r.saturating_sub(1)).to_string());
    }
    out
}

fn to_one_based(m: Move) -> String {
    let sq = |s: Square| format!("{}{}", (b'a' + s.file()) as char, s.rank() + 1);
    format!("{}{}", sq(m.from()), sq(m.to()))
}

fn main() {
    let f = parse_flags();
    let mut rng = ChaCha8Rng::seed_from_u64(f.seed);
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut pos = Position::startpos();
    let mut protocol = String::new();
    let mut gos = 0u32;
    let mut hung = false;
    // The answer of a `go ponder` search, held back until `ponderhit` or `stop`.
    let mut held: Option<String> = None;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if hung {
            continue;
        }
        let toks: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = toks.first() else { continue };
        let one_based = f.fsf && protocol == "uci";
        match cmd {
            "ucci" | "uci" if protocol.is_empty() => {
                let allowed = f.proto == "both" || f.proto == cmd;
                if !allowed {
                    if f.proto == "ucci" {
                        return; // like ElephantEye: anything but ucci ends it
                    }
                    let _ = writeln!(
                        out,
                        "Unknown command: '{cmd}'. Type help for more information."
                    );
                    let _ = out.flush();
                    continue;
                }
                protocol = cmd.to_string();
                let _ = writeln!(out, "id name random_engine");
                if cmd == "ucci" {
                    if !f.no_millisec {
                        let _ = writeln!(out, "option usemillisec type check default true");
                    }
                    let _ = writeln!(out, "ucciok");
                } else {
                    if f.fsf || f.variant_ranks0 {
                        let _ = writeln!(
                            out,
                            "option name UCI_Variant type combo default chess var chess var xiangqi"
                        );
                    }
                    let _ = writeln!(out, "uciok");
                }
            }
            // Misbehaviour counts restart with every game.
            "ucinewgame" | "uccinewgame" => gos = 0,
            "setoption" if toks.get(1) == Some(&"newgame") => gos = 0,
            "isready" => {
                let _ = writeln!(out, "readyok");
            }
            "position" => {
                let mut p = match toks.get(1) {
                    Some(&"startpos") => Position::startpos(),
                    Some(&"fen") => {
                        let fen_end = toks
                            .iter()
                            .position(|t| *t == "moves")
                            .unwrap_or(toks.len());
                        match Position::from_fen(&toks[2..fen_end].join(" ")) {
                            Ok(p) => p,
                            Err(_) => continue,
                        }
                    }
                    _ => continue,
                };
                if let Some(i) = toks.iter().position(|t| *t == "moves") {
                    let list = &toks[i + 1..];
                    let start = p.clone();
                    let all_played = |p: &mut Position, ranks1: bool| {
                        list.iter().all(|m| {
                            let m = if ranks1 {
                                from_one_based(m)
                            } else {
                                m.to_string()
                            };
                            p.play(&m).is_ok()
                        })
                    };
                    if !all_played(&mut p, one_based) && f.variant_ranks0 && protocol == "uci" {
                        p = start;
                        all_played(&mut p, true);
                    }
                }
                pos = p;
            }
            "stop" if f.deaf_ponder && held.is_some() => {}
            "ponderhit" | "stop" => match held.take() {
                Some(answer) => {
                    let _ = writeln!(out, "{answer}");
                }
                None if cmd == "stop" && f.eager_ponder => {
                    let _ = writeln!(out, "nobestmove");
                }
                None => {}
            },
            "go" => {
                gos += 1;
                if f.crash_after == Some(gos) {
                    std::process::exit(3);
                }
                if f.hang_after.is_some_and(|n| gos >= n) {
                    hung = true;
                    continue;
                }
                if f.delay > 0 {
                    std::thread::sleep(Duration::from_millis(f.delay));
                }
                if f.garbage {
                    let _ = out.write_all(b"\xff\xfe garbage \x00 bestmov\n");
                    let _ = writeln!(out, "info depth x score cp y pv zz");
                    let _ = writeln!(out, "{}", "#".repeat(100_000));
                    let _ = writeln!(out, "bestmovehere");
                }
                let moves = pos.legal_moves();
                let chosen = if f.illegal_after == Some(gos) {
                    Square::all()
                        .flat_map(|a| Square::all().map(move |b| (a, b)))
                        .filter_map(|(a, b)| Move::new(a, b))
                        .find(|&m| !pos.is_legal(m))
                } else if f.first {
                    moves.first().copied()
                } else {
                    moves.as_slice().choose(&mut rng).copied()
                };
                let write = |m: Move| {
                    if one_based {
                        to_one_based(m)
                    } else {
                        m.to_string()
                    }
                };
                let answer = match chosen {
                    Some(m) => {
                        let text = write(m);
                        let _ = writeln!(out, "info depth 1 score 0 pv {text}");
                        let draw = if f.offer_draw { " draw" } else { "" };
                        let mut after = pos.clone();
                        let reply = if f.first && after.play(&m.to_string()).is_ok() {
                            after.legal_moves().first().copied()
                        } else {
                            None
                        };
                        let ponder =
                            reply.map_or(String::new(), |r| format!(" ponder {}", write(r)));
                        format!("bestmove {text}{ponder}{draw}")
                    }
                    None if protocol == "ucci" => "nobestmove".to_string(),
                    None => "bestmove (none)".to_string(),
                };
                if toks.get(1) == Some(&"ponder") && !f.eager_ponder {
                    held = Some(answer);
                } else {
                    let _ = writeln!(out, "{answer}");
                }
            }
            "quit" => {
                if protocol == "ucci" {
                    let _ = writeln!(out, "bye");
                }
                let _ = out.flush();
                return;
            }
            _ => {}
        }
        let _ = out.flush();
    }
}
