//! `secret_flow --mark-spec KEY`: where a private key file's secret bytes lie, for the marker
//! that `scripts/secret-flow.sh` preloads into the shipped `parcrypt rsa decrypt`
//! (`scripts/secret-flow-mark.c`). One line per run of bytes: "OFFSET LENGTH VBITS" (file
//! offset, length, the V-bit byte memcheck gives each: 1 bits undefined).
//!
//! What is secret: the contents of d, the primes, their CRT exponents and coefficients, all
//! but each value's bit length (the DER length gives it to within a byte, the kernels run over
//! it): in a DER file the bits below each value's top set bit; in a PEM file the Base64
//! characters that encode only such bytes (a character that also encodes a tag, a length or a
//! value's top byte stays public, at most two per value), their low seven bits (the top bit
//! of a Base64 character is 0 whatever it encodes).
use pkcs8::der::Decode;
use std::ops::Range;

/// The secret ranges of the DER's values (PKCS#8 or PKCS#1), as [`super::secret_ranges`]
/// finds them in PKCS#8.
fn der_ranges(der: &[u8]) -> Result<Vec<Range<usize>>, String> {
    let inner = match pkcs8::PrivateKeyInfo::from_der(der) {
        Ok(info) => info.private_key,
        Err(_) => der,
    };
    let key = pkcs1::RsaPrivateKey::from_der(inner).map_err(|e| e.to_string())?;
    let base = der.as_ptr() as usize;
    let at = |bytes: &[u8]| {
        let start = bytes.as_ptr() as usize - base;
        start..start + bytes.len()
    };
    let mut out = vec![
        at(key.private_exponent.as_bytes()),
        at(key.prime1.as_bytes()),
        at(key.prime2.as_bytes()),
        at(key.exponent1.as_bytes()),
        at(key.exponent2.as_bytes()),
        at(key.coefficient.as_bytes()),
    ];
    for info in key.other_prime_infos.iter().flatten() {
        out.push(at(info.prime.as_bytes()));
        out.push(at(info.exponent.as_bytes()));
        out.push(at(info.coefficient.as_bytes()));
    }
    Ok(out)
}

/// Each DER byte's V bits: secret below each value's top set bit.
fn der_vbits(der: &[u8]) -> Result<Vec<u8>, String> {
    let mut v = vec![0u8; der.len()];
    for r in der_ranges(der)? {
        let Some(top) = der[r.clone()].iter().position(|&b| b != 0) else {
            continue;
        };
        let top = r.start + top;
        v[top] = ((1u16 << (7 - der[top].leading_zeros())) - 1) as u8;
        v[top + 1..r.end].fill(0xff);
    }
    Ok(v)
}

/// The value of a Base64 character (standard alphabet).
fn sextet(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// The spec of a key file: (offset, length, V bits) runs.
pub fn mark_spec(file: &[u8]) -> Result<Vec<(usize, usize, u8)>, String> {
    let mut bytes: Vec<(usize, u8)> = Vec::new();
    if file.starts_with(b"-----BEGIN") {
        // The body: the lines between the BEGIN and END lines, Base64 characters only.
        let body_start = file.iter().position(|&b| b == b'\n').ok_or("no PEM body")? + 1;
        let end = file
            .windows(8)
            .position(|w| w == b"-----END")
            .ok_or("no PEM END line")?;
        let chars: Vec<(usize, u8)> = (body_start..end)
            .filter_map(|i| sextet(file[i]).map(|s| (i, s)))
            .collect();
        let mut der = Vec::new();
        let (mut acc, mut n) = (0u32, 0);
        for &(_, s) in &chars {
            acc = (acc << 6) | u32::from(s);
            n += 6;
            if n >= 8 {
                n -= 8;
                der.push((acc >> n) as u8);
            }
        }
        let v = der_vbits(&der)?;
        for (k, &(offset, _)) in chars.iter().enumerate() {
            let (first, last) = (6 * k / 8, (6 * k + 5) / 8);
            if last < der.len() && (first..=last).all(|b| v[b] == 0xff) {
                bytes.push((offset, 0x7f));
            }
        }
    } else {
        let v = der_vbits(file)?;
        bytes.extend(
            v.iter()
                .enumerate()
                .filter(|(_, v)| **v != 0)
                .map(|(i, v)| (i, *v)),
        );
    }
    // Runs of consecutive bytes with the same V bits.
    let mut out: Vec<(usize, usize, u8)> = Vec::new();
    for (offset, v) in bytes {
        match out.last_mut() {
            Some(run) if run.0 + run.1 == offset && run.2 == v => run.1 += 1,
            _ => out.push((offset, 1, v)),
        }
    }
    if out.is_empty() {
        return Err("no secret byte found: not an RSA private key".into());
    }
    Ok(out)
}
