//! The legal-move core.
