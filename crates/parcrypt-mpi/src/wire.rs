//! Message encodings: little-endian integers, big integers as fixed-width big-endian bytes,
//! and a reader that turns a short or malformed message into a protocol error.
use super::error::{MpiError, MpiResult};
use rug::Integer;
use rug::integer::Order;

/// Appends `v` as 8 little-endian bytes.
pub fn put_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// Appends `x` (non-negative, below 2^(8·width)) as exactly `width` big-endian bytes.
pub fn put_integer(out: &mut Vec<u8>, x: &Integer, width: usize) {
    let digits = x.to_digits::<u8>(Order::Msf);
    assert!(digits.len() <= width, "integer wider than its field");
    out.resize(out.len() + width - digits.len(), 0);
    out.extend_from_slice(&digits);
}

/// Appends a byte string with its length.
pub fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    put_u64(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

/// Reads a message front to back.
#[derive(Debug)]
pub struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader over `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { rest: bytes }
    }

    fn take(&mut self, n: usize) -> MpiResult<&'a [u8]> {
        if self.rest.len() < n {
            return Err(MpiError::Protocol(format!(
                "message too short: wanted {n} more bytes, {} left",
                self.rest.len()
            )));
        }
        let (head, tail) = self.rest.split_at(n);
        self.rest = tail;
        Ok(head)
    }

    /// The next 8-byte little-endian integer.
    pub fn u64(&mut self) -> MpiResult<u64> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }

    /// The next 8-byte integer as a `usize`.
    pub fn usize(&mut self) -> MpiResult<usize> {
        usize::try_from(self.u64()?).map_err(|_| MpiError::Protocol("count overflow".into()))
    }

    /// The next `width`-byte big-endian big integer.
    pub fn integer(&mut self, width: usize) -> MpiResult<Integer> {
        Ok(Integer::from_digits(self.take(width)?, Order::Msf))
    }

    /// The next length-prefixed byte string.
    pub fn bytes(&mut self) -> MpiResult<&'a [u8]> {
        let n = self.usize()?;
        self.take(n)
    }

    /// Whatever is left.
    pub fn rest(&mut self) -> &'a [u8] {
        std::mem::take(&mut self.rest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_and_short_messages_are_errors() {
        let mut m = Vec::new();
        put_u64(&mut m, 7);
        put_integer(&mut m, &Integer::from(0x0102), 4);
        put_integer(&mut m, &Integer::ZERO, 3);
        put_bytes(&mut m, b"abc");
        m.push(9);
        let mut r = Reader::new(&m);
        assert_eq!(r.u64().unwrap(), 7);
        assert_eq!(r.integer(4).unwrap(), 0x0102);
        assert_eq!(r.integer(3).unwrap(), 0);
        assert_eq!(r.bytes().unwrap(), b"abc");
        assert_eq!(r.rest(), &[9]);
        assert!(r.u64().is_err());
        assert_eq!(&m[8..12], &[0, 0, 1, 2]);
    }
}
