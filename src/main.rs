//! The `parcrypt` command (placeholder).
fn main() {}
