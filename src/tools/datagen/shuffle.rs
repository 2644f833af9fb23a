//! A streaming shuffle for training: records from several files, in an order drawn from a
//! seed, without loading the files.
//!
//! Consecutive records of a file come from one game and are strongly correlated; a trainer
//! that sees them in order learns the game, not the evaluation. The reader keeps a buffer of
//! `capacity` records: each step refills it with the next record of a randomly chosen file
//! and hands out a randomly chosen buffered record. Every record comes out exactly once; the
//! larger the buffer, the further apart a game's positions end up (a buffer of a few million
//! records, about 100 MB, mixes tens of thousands of games). Files are interleaved at random,
//! one record at a time, so the mix does not depend on the order they are named in.

use super::format::{DataError, Record, RecordReader};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// Records of several files, shuffled through a buffer; deterministic for a seed.
pub struct ShuffledReader {
    /// Files not yet exhausted.
    sources: Vec<RecordReader>,
    buffer: Vec<Record>,
    capacity: usize,
    rng: ChaCha8Rng,
    failed: bool,
}

impl ShuffledReader {
    /// Shuffles the records of `paths` through a buffer of `capacity` records (at least 1).
    pub fn open<P: AsRef<Path>>(paths: &[P], capacity: usize, seed: u64) -> ShuffledReader {
        ShuffledReader::from_readers(
            paths.iter().map(|p| RecordReader::open(&[p])).collect(),
            capacity,
            seed,
        )
    }

    /// The same over readers already set up (streams, or groups of files read in order).
    pub fn from_readers(sources: Vec<RecordReader>, capacity: usize, seed: u64) -> ShuffledReader {
        let capacity = capacity.max(1);
        ShuffledReader {
            sources,
            buffer: Vec::with_capacity(capacity.min(1 << 24)),
            capacity,
            rng: ChaCha8Rng::seed_from_u64(seed),
            failed: false,
        }
    }

    /// Tops the buffer up from randomly chosen sources.
    fn fill(&mut self) -> Result<(), DataError> {
        while self.buffer.len() < self.capacity && !self.sources.is_empty() {
            let i = self.rng.random_range(0..self.sources.len());
            match self.sources[i].next() {
                Some(Ok(r)) => self.buffer.push(r),
                Some(Err(e)) => return Err(e),
                None => {
                    self.sources.swap_remove(i);
                }
            }
        }
        Ok(())
    }
}

impl Iterator for ShuffledReader {
    type Item = Result<Record, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        if let Err(e) = self.fill() {
            self.failed = true;
            return Some(Err(e));
        }
        if self.buffer.is_empty() {
            return None;
        }
        let i = self.rng.random_range(0..self.buffer.len());
        Some(Ok(self.buffer.swap_remove(i)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::tools::datagen::format::{RecordWriter, Wdl};
    use std::io::Cursor;

    /// `files` files of distinct records (told apart by their score), written as chunks of
    /// ten; returns the readers' bytes and every record.
    fn files(files: usize, per_file: usize) -> (Vec<Vec<u8>>, Vec<Record>) {
        let pos = Position::startpos();
        let mut all = Vec::new();
        let mut out = Vec::new();
        for f in 0..files {
            let recs: Vec<Record> = (0..per_file)
                .map(|i| Record::new(&pos, (f * per_file + i) as i32, Wdl::Draw))
                .collect();
            let mut w = RecordWriter::new(Vec::new());
            for (game, c) in recs.chunks(10).enumerate() {
                w.write_game(1, game as u32, c).unwrap();
            }
            out.push(w.finish().unwrap());
            all.extend(recs);
        }
        (out, all)
    }

    fn shuffled(bytes: &[Vec<u8>], capacity: usize, seed: u64) -> Vec<Record> {
        let readers = bytes
            .iter()
            .map(|b| RecordReader::from_reader("t", Cursor::new(b.clone())))
            .collect();
        ShuffledReader::from_readers(readers, capacity, seed)
            .collect::<Result<_, _>>()
            .unwrap()
    }

    fn scores(r: &[Record]) -> Vec<i16> {
        r.iter().map(|r| r.score()).collect()
    }

    #[test]
    fn every_record_comes_out_exactly_once() {
        let (bytes, all) = files(3, 97);
        for capacity in [1, 7, 50, 10_000] {
            let out = shuffled(&bytes, capacity, 4);
            let mut got = scores(&out);
            got.sort_unstable();
            let mut want = scores(&all);
            want.sort_unstable();
            assert_eq!(got, want, "capacity {capacity}");
        }
        // Shuffled, and by the seed alone.
        let a = scores(&shuffled(&bytes, 50, 4));
        assert_ne!(a, scores(&all));
        assert_eq!(a, scores(&shuffled(&bytes, 50, 4)));
        assert_ne!(a, scores(&shuffled(&bytes, 50, 5)));
        // A large buffer moves records far: the first 20 out are not all from one file.
        let first: Vec<usize> = a[..20].iter().map(|&s| s as usize / 97).collect();
        assert!(first.iter().any(|&f| f != first[0]), "{first:?}");
    }

    #[test]
    fn a_bad_file_ends_the_stream_with_its_error() {
        let (mut bytes, _) = files(2, 30);
        let cut = bytes[1].len() - 5;
        bytes[1].truncate(cut);
        let readers = bytes
            .iter()
            .map(|b| RecordReader::from_reader("t", Cursor::new(b.clone())))
            .collect();
        let items: Vec<_> = ShuffledReader::from_readers(readers, 8, 1).collect();
        assert!(matches!(
            items.last(),
            Some(Err(DataError::Truncated { .. }))
        ));
        assert_eq!(items.iter().filter(|r| r.is_err()).count(), 1);
    }
}
