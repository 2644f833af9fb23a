//! Fuzzes the tablebase readers: the first byte picks one (even: a material signature, the
//! `MATERIAL` argument of `jiangjun tb`, read by [`Material::parse`]; odd: a table file, read
//! by [`StoredTable::from_bytes`]), the rest is its input.
//!
//! Checked: nothing panics; a signature accepted is written back in its canonical letters and
//! reads back equal, and its captures' closure holds only smaller signatures; a table file
//! accepted has the entries (values and conversion distances) its name's index needs, and what
//! it writes reads back to the same entries.
#![no_main]

use jiangjun::board::Color;
use jiangjun::tablebase::{Material, StoredTable, Table, Value};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    if pick % 2 == 0 {
        let text = String::from_utf8_lossy(rest);
        if let Ok(m) = Material::parse(&text) {
            let again = Material::parse(&m.to_string()).expect("written signature reads back");
            assert_eq!(again, m);
            for sub in m.closure() {
                assert!(sub.piece_count() <= m.piece_count());
            }
        }
    } else if let Ok(stored) = StoredTable::from_bytes(Path::new("fuzz.jjtb"), rest) {
        for side in Color::ALL {
            for idx in 0..stored.layout.size() {
                assert!(stored.dtc(side, idx).is_some(), "every entry can be read");
            }
        }
        let table = Table::from(&stored);
        let n = table.layout.size() as usize;
        for side in table.codes.iter().chain(&table.dtc) {
            assert_eq!(side.len(), n);
        }
        for side in &table.codes {
            for &c in side {
                if let Some(v) = Value::from_code(c) {
                    assert_eq!(v.code(), c);
                }
            }
        }
        let bytes = table.to_bytes();
        let again =
            StoredTable::from_bytes(Path::new("again.jjtb"), &bytes).expect("written reads");
        let again = Table::from(&again);
        assert!(
            again.codes == table.codes,
            "an accepted file writes back the same entries"
        );
        assert!(again.dtc == table.dtc, "and the same conversion distances");
    }
});
