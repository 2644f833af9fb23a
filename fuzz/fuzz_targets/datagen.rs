//! Fuzzes the training-data reader: any bytes are read as a data file, chunk by chunk, until
//! the end or the first error; and any 32 bytes as one record.
//!
//! Checked: nothing panics; the reader stops after an error; a record read writes back to the
//! same 32 bytes, and its placement is checked as a position without panicking.
#![no_main]

use jiangjun::tools::datagen::format::{ChunkReader, Record};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut reader = ChunkReader::from_reader("fuzz", std::io::Cursor::new(data.to_vec()));
    let mut records = Vec::new();
    let mut failed = false;
    while let Some(r) = reader.read_into(&mut records) {
        assert!(!failed, "a chunk after an error");
        failed = r.is_err();
    }
    for chunk in data.chunks_exact(32) {
        let b: &[u8; 32] = chunk.try_into().unwrap();
        let Ok(rec) = Record::from_bytes(b) else {
            continue;
        };
        assert_eq!(&rec.to_bytes(), b);
        let _ = rec.position();
    }
});
