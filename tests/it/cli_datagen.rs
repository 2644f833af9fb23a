//! `jiangjun datagen` run as a user (or a batch job) runs it, on tiny numbers: the file it
//! writes, sharding by concatenation, determinism, and refused arguments.

use crate::cli_support;
use cli_support::run;

use jiangjun::tools::datagen::{Chunk, ChunkReader, Record, RecordReader, ShuffledReader};
use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!(
        "jiangjun-cli-datagen-{}-{name}",
        std::process::id()
    ))
}

/// Runs datagen into `name` with the tiny settings plus `extra`; returns the file's bytes.
fn datagen(name: &str, extra: &[&str]) -> Vec<u8> {
    let path = temp(name);
    let p = path.to_string_lossy().into_owned();
    let mut args = vec![
        "datagen",
        "--out",
        &p,
        "--games",
        "5",
        "--nodes",
        "250",
        "--seed",
        "21",
        "--random-plies",
        "4",
        "--max-plies",
        "30",
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{args:?}\n{out}{err}");
    assert!(out.starts_with(&format!("wrote {p}:")), "{out}");
    assert!(err.contains("positions/s") && err.contains("ETA"), "{err}");
    let bytes = std::fs::read(&path).expect("output written");
    // Written under a temporary name beside it and renamed at the end: none is left.
    let dir = path.parent().expect("a folder");
    let stem = path
        .file_name()
        .expect("a name")
        .to_string_lossy()
        .into_owned();
    let left: Vec<_> = std::fs::read_dir(dir)
        .expect("temp folder")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(&format!("{stem}.partial-")))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_file(path);
    bytes
}

fn chunks(bytes: Vec<u8>) -> Vec<Chunk> {
    ChunkReader::from_reader("test", std::io::Cursor::new(bytes))
        .collect::<Result<_, _>>()
        .expect("a valid data file")
}

#[test]
fn writes_records_the_reader_understands() {
    let path = temp("plain.bin");
    let p = path.to_string_lossy().into_owned();
    let (code, out, err) = run(&[
        "datagen",
        "--out",
        &p,
        "--games",
        "3",
        "--nodes",
        "250",
        "--seed",
        "4",
        "--max-plies",
        "40",
        "--threads",
        "2",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let records: Vec<Record> = RecordReader::open(&[&path])
        .collect::<Result<_, _>>()
        .expect("readable");
    assert!(!records.is_empty());
    // The summary's count is what the file holds.
    assert!(
        out.contains(&format!("{} positions kept", records.len())),
        "{out}"
    );
    for r in &records {
        let pos = r.position().expect("a legal position");
        assert!(!pos.in_check());
        assert!(i32::from(r.score()).abs() <= 2000);
    }
    // The trainer's shuffled stream holds the same records.
    let mut shuffled: Vec<Record> = ShuffledReader::open(&[&path, &path], 64, 9)
        .collect::<Result<_, _>>()
        .expect("readable");
    assert_eq!(shuffled.len(), 2 * records.len());
    let key = |r: &Record| (r.score(), r.to_bytes());
    shuffled.sort_by_key(key);
    let mut twice = [records.clone(), records].concat();
    twice.sort_by_key(key);
    assert_eq!(shuffled, twice);
    let _ = std::fs::remove_file(path);
}

#[test]
fn shards_concatenate_to_the_whole_run_and_seeds_repeat() {
    let whole = datagen("whole.bin", &["--threads", "2"]);
    assert_eq!(
        whole,
        datagen("again.bin", &["--threads", "1"]),
        "same seed"
    );
    // What a batch job does: shard I of N with the same seed, then `cat`.
    let mut cat = Vec::new();
    for shard in ["0/3", "1/3", "2/3"] {
        cat.extend(datagen(
            &format!("shard{}.bin", &shard[..1]),
            &["--shard", shard],
        ));
    }
    assert_eq!(cat.len(), whole.len());
    let mut merged = chunks(cat);
    merged.sort_by_key(|c| c.game);
    assert_eq!(merged, chunks(whole));
}

#[test]
fn opening_lines_start_the_games() {
    let lines = temp("lines.txt");
    std::fs::write(
        &lines,
        "# book line 1\nh2e2 h9g7\n\n# book line 2\nb2e2 b9c7\n",
    )
    .unwrap();
    let l = lines.to_string_lossy().into_owned();
    let bytes = datagen("lines.bin", &["--openings", &l, "--random-plies", "0"]);
    assert_eq!(chunks(bytes).len(), 5);
    let _ = std::fs::remove_file(lines);
}

#[test]
fn labels_recorded_games() {
    let path = temp("games.bin");
    let p = path.to_string_lossy().into_owned();
    let label = |threads: &str| {
        let args = [
            "datagen",
            "--from-games",
            "tests/data/datagen_games.pgn",
            "tests/data/datagen_odds.pgn",
            "--out",
            &p,
            "--nodes",
            "250",
            "--skip-plies",
            "2",
            "--seed",
            "4",
            "--threads",
            threads,
        ];
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{out}{err}");
        assert!(
            err.contains("games/s") && err.contains("positions/s"),
            "{err}"
        );
        (out, std::fs::read(&path).unwrap())
    };
    let (out, bytes) = label("2");
    assert!(
        out.starts_with(&format!(
            "wrote {p}: 4 games labelled (red wins 1, draws 1, black wins 2) of 6 read from 2 files (1 unreadable games, 1 without a result, 0 unreadable files)"
        )),
        "{out}"
    );
    // Game 16, 12, 7 and 6 plies long, the first 2 not searched.
    assert!(out.contains(" of 33 searched"), "{out}");
    assert_eq!(label("1").1, bytes, "the same bytes whatever the threads");
    let chunks = chunks(bytes);
    let games: Vec<u32> = chunks.iter().map(|c| c.game).collect();
    assert_eq!(games, [0, 1, 2, 5]);
    for (c, red) in chunks.iter().zip([1.0, 0.0, 0.5, 0.0]) {
        assert_eq!(c.seed, 4);
        for r in &c.records {
            assert_eq!(r.result_for_red().value(), red, "game {}", c.game);
        }
    }
    let _ = std::fs::remove_file(path);
}

/// A folder whose links lead back into it (`a -> .`, `b -> .`) and a second name for a file:
/// each file is read once, and the run ends.
#[cfg(unix)]
#[test]
fn link_loops_in_a_games_folder_read_each_file_once() {
    use std::os::unix::fs::symlink;
    let dir = temp("links");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["datagen_games.pgn", "datagen_odds.pgn"] {
        std::fs::copy(format!("tests/data/{name}"), dir.join(name)).unwrap();
    }
    symlink(".", dir.join("a")).unwrap();
    symlink(".", dir.join("b")).unwrap();
    symlink("datagen_games.pgn", dir.join("again.pgn")).unwrap();
    let out_path = temp("links.bin");
    let (code, out, err) = run(&[
        "datagen",
        "--from-games",
        dir.to_str().unwrap(),
        "--out",
        out_path.to_str().unwrap(),
        "--nodes",
        "100",
        "--threads",
        "1",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(" of 6 read from 2 files"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(out_path);
}

/// Files that hold no game (known only once they are read, as games are labelled while
/// they are read) are refused with exit status 2, and an earlier output is left as it was,
/// with nothing else beside it.
#[test]
fn files_of_no_game_leave_the_old_output_as_it_was() {
    let dir = temp("no-game");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("out")).unwrap();
    std::fs::write(dir.join("empty.pgn"), "").unwrap();
    std::fs::write(dir.join("blank.pgn"), "\n\n").unwrap();
    let out_path = dir.join("out/data.bin");
    std::fs::write(&out_path, b"old data").unwrap();
    let (code, out, err) = run(&[
        "datagen",
        "--from-games",
        dir.join("empty.pgn").to_str().unwrap(),
        dir.join("blank.pgn").to_str().unwrap(),
        "--out",
        out_path.to_str().unwrap(),
        "--nodes",
        "100",
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("no game read"), "{err}");
    assert_eq!(std::fs::read(&out_path).unwrap(), b"old data");
    let left: Vec<_> = std::fs::read_dir(dir.join("out")).unwrap().collect();
    assert_eq!(left.len(), 1, "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_labelling_evaluation_is_the_default_or_the_one_named() {
    let net = temp("builtin.jjnn");
    std::fs::write(&net, jiangjun::eval::nnue::embedded::bytes()).unwrap();
    let n = net.to_string_lossy().into_owned();
    let hand = datagen("hand.bin", &["--handwritten"]);
    let nnue = datagen("nnue.bin", &["--nnue"]);
    assert_ne!(
        hand, nnue,
        "the network labels like the hand-written evaluation"
    );
    // The built-in network's file, named, labels as --nnue does.
    assert_eq!(datagen("file.bin", &["--evalfile", &n]), nnue);
    let default = if jiangjun::eval::nnue::DEFAULT_ON {
        &nnue
    } else {
        &hand
    };
    assert_eq!(&datagen("default.bin", &[]), default);
    let _ = std::fs::remove_file(net);
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    let bad_line = temp("bad-lines.txt");
    std::fs::write(&bad_line, "h2e2 h2e2\n").unwrap();
    let bad = bad_line.to_string_lossy().into_owned();
    let out = temp("never.bin");
    let o = out.to_string_lossy().into_owned();
    for (args, says) in [
        (
            vec!["--games", "5"],
            "required arguments were not provided:\n  --out",
        ),
        (
            vec!["--out", &o, "--games", "x"],
            "'--games <N>': 'x' is not a valid number",
        ),
        (
            vec!["--out", &o, "--games", "0"],
            "'--games <N>': must be from 1",
        ),
        (
            vec!["--out", &o, "--shard", "3/2"],
            "--shard '3/2' must be I/N",
        ),
        (vec!["--out", &o, "--shard", "1"], "--shard '1' must be I/N"),
        (
            vec!["--out", &o, "--nodes", "10", "--depth", "3"],
            "cannot be used with",
        ),
        (
            vec!["--out", &o, "--depth", "99"],
            "'--depth <N>': must be from 1 to 30",
        ),
        (
            vec!["--out", &o, "--threads", "0"],
            "'--threads <T>': must be from 1",
        ),
        (
            vec!["--out", &o, "--nodes", "-5"],
            "invalid value '-5' for '--nodes <N>'",
        ),
        (
            vec!["--out", &o, "--openings", "/nonexistent/lines.txt"],
            "cannot read",
        ),
        (vec!["--out", &o, "--openings", &bad], "line 1"),
        (
            vec!["--out", &o, "--frobnicate"],
            "unexpected argument '--frobnicate'",
        ),
        (
            vec!["--out", &o, "--seed"],
            "a value is required for '--seed <S>'",
        ),
        (vec!["--out", "/nonexistent/dir/out.bin"], "cannot create"),
        (
            vec!["--out", &o, "--evalfile", "/nonexistent/net.jjnn"],
            "--evalfile /nonexistent/net.jjnn",
        ),
        (
            vec!["--out", &o, "--nnue", "--handwritten"],
            "cannot be used with",
        ),
        (
            vec!["--out", &o, "--skip-plies", "3"],
            "required arguments were not provided",
        ),
        (
            vec!["--out", &o, "--from-games", "tests/data", "--games", "3"],
            "cannot be used with",
        ),
        (
            vec!["--out", &o, "--from-games", "/nonexistent/games"],
            "no game read",
        ),
    ] {
        let mut all = vec!["datagen"];
        all.extend(args);
        let (code, _, err) = run(&all);
        assert_eq!(code, 2, "{all:?}: {err}");
        assert!(err.contains(says), "{all:?}: {err}");
    }
    assert!(!out.exists(), "nothing written for refused arguments");
    let _ = std::fs::remove_file(bad_line);
}
