//! pipeline over ranks (in progress).
