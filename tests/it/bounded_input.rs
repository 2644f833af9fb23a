//! Bounded input through the real binary (issue 33): every path the engine or a subcommand
//! reads is refused at once, with a message, when it is a FIFO, a directory, a device or over
//! its size limit, and a truncated file is refused, never a hang, an endless read or a panic.

use crate::cli_support::{run, temp_folder, write_file};
use crate::protocol_support::Engine;
use jiangjun::input::MAX_BOOK_BYTES;
use std::path::{Path, PathBuf};

/// A FIFO made with `mkfifo`, or `None` (the reason printed) where that is not possible.
fn fifo(dir: &Path) -> Option<String> {
    let p = dir.join("fifo");
    match std::process::Command::new("mkfifo").arg(&p).status() {
        Ok(s) if s.success() => Some(p.to_string_lossy().into_owned()),
        other => {
            println!("skipped the FIFO cases: mkfifo failed ({other:?})");
            None
        }
    }
}

/// `/dev/zero` where the system has it (the case is skipped, with a note, elsewhere).
fn dev_zero() -> Option<String> {
    let p = Path::new("/dev/zero");
    if p.exists() {
        Some("/dev/zero".into())
    } else {
        println!("skipped the /dev/zero cases: not on this system");
        None
    }
}

/// A sparse file of `len` bytes: over a limit without writing gigabytes.
fn sparse(dir: &Path, name: &str, len: u64) -> String {
    let p: PathBuf = dir.join(name);
    std::fs::File::create(&p).unwrap().set_len(len).unwrap();
    p.to_string_lossy().into_owned()
}

/// The special paths every reader must refuse, each with the words its refusal must contain.
fn refused_paths(dir: &Path, over_limit: u64) -> Vec<(String, String)> {
    let mut cases = vec![
        (
            dir.to_string_lossy().into_owned(),
            "not a regular file (a directory)".to_string(),
        ),
        (
            sparse(dir, "huge", over_limit + 1),
            format!("over the limit of {over_limit} bytes"),
        ),
    ];
    if let Some(z) = dev_zero() {
        cases.push((z, "not a regular file (a character device)".into()));
    }
    if let Some(f) = fifo(dir) {
        cases.push((f, "not a regular file (a FIFO)".into()));
    }
    cases
}

#[test]
fn engine_options_refuse_special_files_at_once() {
    let dir = temp_folder("bounded", "options");
    let net_len = jiangjun::eval::nnue::network::MAX_FILE_LEN as u64;
    for (option, limit) in [("evalfile", net_len), ("bookfiles", MAX_BOOK_BYTES)] {
        let sub = dir.join(option);
        std::fs::create_dir_all(&sub).unwrap();
        let mut e = Engine::ucci();
        for (path, why) in refused_paths(&sub, limit) {
            e.send(&format!("setoption {option} {path}"));
            // The engine answers at once: the option neither blocks on a FIFO nor reads
            // `/dev/zero` without end (the harness times out otherwise).
            let said = e.sync();
            let why = if option == "evalfile" && why.contains("over the limit") {
                "longer than".to_string()
            } else {
                why
            };
            assert!(
                said.iter()
                    .any(|l| l.starts_with("info string") && l.contains(&path) && l.contains(&why)),
                "{option} {path}: {why:?} not in {said:?}"
            );
        }
        // A truncated book (our format, cut in the entries) is refused too.
        if option == "bookfiles" {
            let book =
                std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("book/masters.jjb"))
                    .unwrap();
            let cut = write_file(&sub, "cut.jjb", &book[..book.len() - 7]);
            e.send(&format!("setoption bookfiles {cut}"));
            let said = e.sync();
            assert!(
                said.iter().any(|l| l.contains("truncated")),
                "cut book: {said:?}"
            );
            // A good book made longer (under the limit) than its header allows is refused by
            // its size, not read.
            let long = write_file(&sub, "long.jjb", &book);
            std::fs::OpenOptions::new()
                .write(true)
                .open(&long)
                .unwrap()
                .set_len(100 << 20)
                .unwrap();
            e.send(&format!("setoption bookfiles {long}"));
            let said = e.sync();
            assert!(
                said.iter().any(|l| l.contains("longer than")),
                "long book: {said:?}"
            );
        }
        e.send("quit");
        assert!(e.wait_exit(std::time::Duration::from_secs(10)).is_some());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn subcommands_refuse_special_files_with_status_2() {
    let dir = temp_folder("bounded", "cli");
    // Game files are streamed, whatever their size: this one (600 MiB of zeros) is refused
    // at its first million characters without a line end, by every reader of game files.
    let game_cases = refused_paths(&dir, 600 << 20);
    let out = dir.join("games.jjb").to_string_lossy().into_owned();
    let data = dir.join("games.bin").to_string_lossy().into_owned();
    for (path, why) in &game_cases {
        let why = if why.starts_with("over the limit") {
            "a line longer than 1048576 characters"
        } else {
            why.as_str()
        };
        for args in [
            vec!["pgn", "check", path.as_str()],
            vec!["analyse", path.as_str(), "--depth", "1"],
        ] {
            let (code, _, err) = run(&args);
            assert_eq!(code, 2, "{args:?}: {err}");
            assert!(err.contains(why), "{args:?}: {why:?} not in {err}");
        }
        // The tools over a collection (which take folders, and name other special files
        // "not a regular file or folder") report a file they cannot read and go on.
        if !why.starts_with("a line longer") {
            continue;
        }
        for args in [
            vec!["book", "build", "--games", path.as_str(), "--out", &out],
            vec!["datagen", "--from-games", path.as_str(), "--out", &data],
        ] {
            let (_, text, err) = run(&args);
            assert!(
                err.contains(why) || text.contains(why),
                "{args:?}: {why:?} not in {text}{err}"
            );
        }
    }
    let book_dir = dir.join("book");
    std::fs::create_dir_all(&book_dir).unwrap();
    for (path, why) in refused_paths(&book_dir, MAX_BOOK_BYTES) {
        let (code, _, err) = run(&["book", "probe", "--book", &path]);
        assert_eq!(code, 2, "book probe {path}: {err}");
        assert!(
            err.contains(&why),
            "book probe {path}: {why:?} not in {err}"
        );
    }
    // Training data is streamed (no size limit), but it must be a regular file too.
    let data_dir = dir.join("data");
    std::fs::create_dir_all(&data_dir).unwrap();
    let out = data_dir.join("net.jjnn").to_string_lossy().into_owned();
    let mut specials = vec![data_dir.to_string_lossy().into_owned()];
    specials.extend(fifo(&data_dir));
    specials.extend(dev_zero());
    for path in specials {
        let (code, _, err) = run(&["train", "--data", &path, "--out", &out, "--epochs", "1"]);
        assert_eq!(code, 2, "train --data {path}: {err}");
        assert!(
            err.contains("not a regular file"),
            "train --data {path}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
