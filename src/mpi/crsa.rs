//! crsa over ranks (in progress).
