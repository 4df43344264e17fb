//! bulk over ranks (in progress).
