//! Endgame tablebases (残局库): every position of a small material signature solved by
//! retrograde analysis, read back by the engine and the `tb` subcommand.
//!
//! [`material`] names the tables (`KR-KAABB`), [`index`] numbers their positions, [`generate`]
//! solves them, [`table`] writes them, [`stored`] reads them back and holds them (in memory, or
//! read from the file at each probe), [`set`] looks positions up in the tables held, [`value`]
//! is what they say. The values are win, draw or loss for the side to move with the distance
//! to mate in plies; mate and stalemate both lose (2011 rules 4.1.2) and games without
//! attacking pieces are drawn (4.2.2). Each decided position also has a conversion distance,
//! plies to the next capture or the mate, against the natural limit (4.2.4;
//! [`table::Table::dtc`]). The scope of the repetition rules in these tables is in
//! docs/tablebases.md.

pub mod generate;
pub mod index;
pub mod material;
pub mod set;
pub mod stored;
pub mod table;
pub mod value;

pub use material::Material;
pub use set::TableSet;
pub use stored::StoredTable;
pub use table::Table;
pub use value::Value;
