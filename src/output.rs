//! Files written whole or not at all: the one place where the tools write an output file
//! that may replace an earlier one (a book, tuned weights, converted games).
//!
//! What is written goes to a temporary file beside the destination (`NAME.partial-PID`, in
//! the same folder, so on the same file system) and is renamed over it only at the end, after
//! its bytes reached the disk. A run that fails or is stopped meanwhile leaves the old file as
//! it was and no half-written one, and the output may name one of the run's inputs: the input
//! is read whole before the rename replaces it.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file being written under a temporary name; [`AtomicFile::commit`] gives it its name. If
/// it is dropped before, the temporary file is removed and the destination is untouched.
pub struct AtomicFile {
    path: PathBuf,
    tmp: PathBuf,
    file: BufWriter<File>,
    committed: bool,
}

impl AtomicFile {
    /// Starts writing `path`: creates the temporary file beside it.
    pub fn create(path: &Path) -> io::Result<AtomicFile> {
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(format!(".partial-{}", std::process::id()));
        let tmp = path.with_file_name(name);
        let file = File::create(&tmp)?;
        Ok(AtomicFile {
            path: path.to_path_buf(),
            tmp,
            file: BufWriter::new(file),
            committed: false,
        })
    }

    /// Flushes what was written to the disk and renames the file to its name, replacing the
    /// file there.
    pub fn commit(mut self) -> io::Result<()> {
        self.file.flush()?;
        self.file.get_ref().sync_all()?;
        std::fs::rename(&self.tmp, &self.path)?;
        self.committed = true;
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Writes `bytes` to `path` whole or not at all (see [`AtomicFile`]).
pub fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(bytes)?;
    f.commit()
}

/// Whether `a` and `b` name the same existing file (through links, or other names for it):
/// the same device and inode on Unix, the same canonical path elsewhere. `false` when either
/// does not exist.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_or_left_as_it_was() {
        let dir = std::env::temp_dir().join(format!("jj-output-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("out.txt");
        std::fs::write(&p, b"old").unwrap();
        // Dropped before the end: the old file stays, the temporary one goes.
        let mut f = AtomicFile::create(&p).unwrap();
        f.write_all(b"half").unwrap();
        drop(f);
        assert_eq!(std::fs::read(&p).unwrap(), b"old");
        write_whole(&p, b"new").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["out.txt"]);
        // A folder that does not exist: an error, nothing written.
        assert!(write_whole(&dir.join("no/such/out.txt"), b"x").is_err());
        assert!(same_file(&p, &dir.join(".").join("out.txt")));
        assert!(!same_file(&p, &dir.join("other.txt")));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
