//! PEM armor as OpenSSL reads it: `-----BEGIN LABEL-----`, Base64 at any line width (64, 76,
//! 65, 48 or one long line), LF or CRLF line ends, whitespace anywhere in the body or after a
//! line, RFC 1421 headers (`Proc-Type: 4,ENCRYPTED`), and text before and after the block.
//!
//! What is really wrong gets its own one-line message: no END line, an END label that does not
//! match, a character outside Base64, a body whose length is not a whole number of 4-character
//! groups, misplaced `=` padding, an empty body. The Base64 is decoded by arithmetic (`decode_ct`), whose
//! decoding time does not depend on the (secret) data; the body and the DER are kept in
//! [`Zeroizing`] buffers.
use crate::bignum::ct::secret_flow;
use zeroize::Zeroizing;

/// One decoded PEM block.
#[derive(Debug)]
pub struct PemBlock {
    /// The label between `BEGIN ` and `-----`, e.g. `PRIVATE KEY`.
    pub label: String,
    /// Whether RFC 1421 headers say the body is encrypted (`Proc-Type: 4,ENCRYPTED`).
    pub encrypted: bool,
    /// The decoded body (DER), wiped when dropped.
    pub der: Zeroizing<Vec<u8>>,
}

/// Finds the PEM blocks in `text` and decodes the first whose label `wanted` accepts (or, when
/// none is wanted, the first block, so that the caller can name its label).
///
/// `None` when `text` has no `-----BEGIN ` line at all (it may be DER); otherwise the block or
/// a one-line description of what is wrong with it.
pub fn decode(text: &[u8], wanted: impl Fn(&str) -> bool) -> Option<Result<PemBlock, String>> {
    let lines = Lines::of(text);
    let begins: Vec<(usize, &[u8])> = (0..lines.len())
        .filter_map(|i| Some((i, begin_label(lines.armor(i)?)?)))
        .collect();
    let &(start, label) = begins
        .iter()
        .find(|(_, label)| std::str::from_utf8(label).is_ok_and(&wanted))
        .or_else(|| begins.first())?;
    Some(decode_block(&lines, start, label))
}

/// The lines of a PEM file, split without a branch on a secret character.
///
/// What is public here, and why: the *layout* of the file — where its line ends are, which lines
/// are blank, which contain a `-` (BEGIN and END lines) or a `:` (RFC 1421 headers). None of
/// these characters is in the Base64 alphabet, so for a key that loads they tell nothing of the
/// Base64 characters: a body line never holds one, and its line ends are where the writer put
/// them (every 64 characters for OpenSSL). They are computed for every byte with arithmetic
/// masks and only then declassified for the secret-flow check
/// ([`secret_flow::declassify`](crate::hazmat::bignum::ct::secret_flow::declassify)). A line with a `-`
/// or `:` is armor, trimmed and compared in variable time; a body line is never looked at
/// character by character, only compacted ([`compact`]) and decoded by [`decode_ct`].
struct Lines<'a> {
    /// Each line, its `\n` left out (a `\r` stays: it is whitespace to [`compact`]).
    raw: Vec<&'a [u8]>,
    /// Per line: bit 0 it holds a `-`, bit 1 a `:`, bit 2 it is all whitespace (public).
    flags: Vec<u8>,
}

impl<'a> Lines<'a> {
    fn of(text: &'a [u8]) -> Self {
        let mut ends: Vec<u8> = text.iter().map(|&c| eq_mask(c, b'\n') & 1).collect();
        secret_flow::declassify(&ends);
        let mut raw = Vec::new();
        let mut from = 0;
        for (i, &nl) in ends.iter().enumerate() {
            if nl == 1 {
                raw.push(&text[from..i]);
                from = i + 1;
            }
        }
        raw.push(&text[from..]);
        ends.clear();
        let mut flags: Vec<u8> = raw
            .iter()
            .map(|line| {
                let (mut dash, mut colon, mut all_ws) = (0u8, 0u8, 0xffu8);
                for &c in line.iter() {
                    dash |= eq_mask(c, b'-');
                    colon |= eq_mask(c, b':');
                    all_ws &= ws_mask(c);
                }
                (dash & 1) | (colon & 2) | (all_ws & 4)
            })
            .collect();
        secret_flow::declassify(&flags);
        flags.shrink_to_fit();
        Lines { raw, flags }
    }

    fn len(&self) -> usize {
        self.raw.len()
    }

    /// Line `i`, trimmed, when it holds a `-` or a `:` (armor or a header), else `None`.
    fn armor(&self, i: usize) -> Option<&'a [u8]> {
        (self.flags[i] & 3 != 0).then(|| self.raw[i].trim_ascii())
    }

    /// Whether line `i` holds a `:`.
    fn has_colon(&self, i: usize) -> bool {
        self.flags[i] & 2 != 0
    }

    /// Whether line `i` is blank (whitespace only).
    fn blank(&self, i: usize) -> bool {
        self.flags[i] & 4 != 0
    }
}

/// 0xff when `c == x`, else 0, without a branch.
fn eq_mask(c: u8, x: u8) -> u8 {
    let d = u16::from(c ^ x);
    // d − 1 borrows into the high byte exactly when d = 0.
    (d.wrapping_sub(1) >> 8) as u8
}

/// 0xff when `c` is ASCII whitespace as [`u8::is_ascii_whitespace`] has it (space, tab, LF,
/// FF, CR), else 0, without a branch.
fn ws_mask(c: u8) -> u8 {
    eq_mask(c, b' ') | eq_mask(c, b'\t') | eq_mask(c, b'\n') | eq_mask(c, 0x0c) | eq_mask(c, b'\r')
}

/// The label of a `-----BEGIN LABEL-----` line.
fn begin_label(line: &[u8]) -> Option<&[u8]> {
    line.strip_prefix(b"-----BEGIN ")?.strip_suffix(b"-----")
}

fn decode_block(lines: &Lines<'_>, start: usize, label: &[u8]) -> Result<PemBlock, String> {
    let label = std::str::from_utf8(label)
        .ok()
        .filter(|l| l.bytes().all(|b| b.is_ascii_graphic() || b == b' '))
        .ok_or("PEM BEGIN line has a label that is not printable ASCII")?
        .to_string();
    let end_line = format!("-----END {label}-----");
    let mut end = None;
    for i in start + 1..lines.len() {
        let Some(line) = lines.armor(i) else { continue };
        if line.starts_with(b"-----END ") {
            if line != end_line.as_bytes() {
                return Err(format!(
                    "PEM END line \"{}\" (line {}) does not match \"-----BEGIN {label}-----\"",
                    String::from_utf8_lossy(line),
                    i + 1
                ));
            }
            end = Some(i);
            break;
        }
        if begin_label(line).is_some() {
            return Err(format!(
                "no \"{end_line}\" line before the next BEGIN line (line {})",
                i + 1
            ));
        }
    }
    let end = end.ok_or_else(|| format!("no \"{end_line}\" line (truncated file?)"))?;
    // RFC 1421 headers ("Name: value" lines, then a blank line) come before the Base64.
    let mut encrypted = false;
    let mut body = start + 1;
    let first = (body..end).find(|&i| !lines.blank(i)).unwrap_or(end);
    if first < end && lines.has_colon(first) {
        let headers_end = (first..end).find(|&i| lines.blank(i)).unwrap_or(end);
        encrypted = (first..headers_end).any(|i| {
            lines
                .armor(i)
                .is_some_and(|h| h.starts_with(b"Proc-Type:") && contains(h, b"ENCRYPTED"))
        });
        body = headers_end;
    }
    let der = if encrypted {
        Zeroizing::new(Vec::new()) // never decoded: the caller refuses encrypted blocks
    } else {
        decode_base64(&lines.raw[body..end], body + 1)?
    };
    Ok(PemBlock {
        label,
        encrypted,
        der,
    })
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// The Base64 body, whitespace removed, checked and decoded. `first_line` is the 1-based line
/// number of `body[0]` in the file, for messages.
///
/// In constant time for a key that loads: the whitespace goes by [`compact`], and [`decode_ct`]
/// finds an invalid character or misplaced padding without a branch on the data. Only the
/// length of the compacted body (public: it is the key's size) decides anything before that.
/// Once the key is refused, [`why_refused`] looks at the characters in variable time to name
/// what is wrong.
fn decode_base64(body: &[&[u8]], first_line: usize) -> Result<Zeroizing<Vec<u8>>, String> {
    let b64 = compact(body);
    if b64.is_empty() || b64.len() % 4 != 0 {
        return Err(why_refused(body, first_line, b64.len()));
    }
    match decode_ct(&b64) {
        Some(der) => Ok(der),
        None => Err(why_refused(body, first_line, b64.len())),
    }
}

/// A Base64 character's 6-bit value, or −1, by arithmetic alone (no branch, no table).
fn decode6(c: u8) -> i32 {
    let c = i32::from(c);
    let mut v: i32 = -1;
    v += (((0x40 - c) & (c - 0x5b)) >> 8) & (c - 64);
    v += (((0x60 - c) & (c - 0x7b)) >> 8) & (c - 70);
    v += (((0x2f - c) & (c - 0x3a)) >> 8) & (c + 5);
    v += (((0x2a - c) & (c - 0x2c)) >> 8) & 63;
    v += (((0x2e - c) & (c - 0x30)) >> 8) & 64;
    v
}

/// 1 where `c` is `=`, else 0, by arithmetic.
fn is_pad(c: u8) -> u8 {
    let d = u32::from(c ^ b'=');
    (((d | d.wrapping_neg()) >> 31) as u8 ^ 1) & 1
}

/// Decodes `b64` (whitespace removed, a multiple of 4 long) in constant time: every character
/// goes through [`decode6`] and one accumulated flag says whether any was invalid. Only the
/// number of `=` at the end (it fixes the DER's length, which is public) and that one flag
/// (whether the key loads) are declassified before anything depends on them. `None` when the
/// body is not valid Base64.
fn decode_ct(b64: &[u8]) -> Option<Zeroizing<Vec<u8>>> {
    let n = b64.len();
    let last = is_pad(b64[n - 1]);
    let pad = [last + (last & is_pad(b64[n - 2]))];
    secret_flow::declassify(&pad);
    // Read back through an opaque reference: the compiler may not reuse what it computed.
    let pad = usize::from(std::hint::black_box(&pad)[0]);
    let mut bad: i32 = 0;
    let mut der = Zeroizing::new(vec![0u8; n / 4 * 3]);
    for (k, (q, out)) in b64.chunks_exact(4).zip(der.chunks_exact_mut(3)).enumerate() {
        // The trailing `=` of the last group (their number is public) stand for zero bits.
        let real = if k == n / 4 - 1 { 4 - pad } else { 4 };
        let mut v = [0i32; 4];
        for (x, &c) in v.iter_mut().zip(q).take(real) {
            *x = decode6(c);
            bad |= *x;
        }
        out[0] = ((v[0] << 2) | (v[1] >> 4)) as u8;
        out[1] = ((v[1] << 4) | (v[2] >> 2)) as u8;
        out[2] = ((v[2] << 6) | v[3]) as u8;
    }
    der.truncate(n / 4 * 3 - pad);
    let flag = [u8::from(bad < 0)];
    secret_flow::declassify(&flag);
    (std::hint::black_box(&flag)[0] == 0).then_some(der)
}

/// The lines of `body` joined with their whitespace removed, by a compaction whose control
/// flow and memory addresses do not depend on the characters' values: every byte is written at
/// the current end and the end advances by one unless the byte is whitespace. Whether a byte
/// is whitespace is computed by arithmetic ([`ws_mask`]) and declassified per byte: no Base64
/// character is whitespace, so for a key that loads it reveals only the layout (spaces and
/// `\r`s the writer put between the characters), never a character.
fn compact(body: &[&[u8]]) -> Zeroizing<Vec<u8>> {
    let total: usize = body.iter().map(|l| l.len()).sum();
    // One spare byte: the last write may land one past the kept characters.
    let mut out = Zeroizing::new(vec![0u8; total + 1]);
    let mut keep: Vec<u8> = Vec::with_capacity(total);
    for line in body {
        keep.extend(line.iter().map(|&c| !ws_mask(c) & 1));
    }
    secret_flow::declassify(&keep);
    let mut pos = 0;
    for (&c, &k) in body.iter().flat_map(|l| l.iter()).zip(&keep) {
        out[pos] = c;
        pos += usize::from(k);
    }
    out[pos] = 0;
    out.truncate(pos);
    out
}

/// What is wrong with a refused body (variable time: the key is not used), as one line.
fn why_refused(body: &[&[u8]], first_line: usize, len: usize) -> String {
    for (i, line) in body.iter().enumerate() {
        for &c in line.iter().filter(|c| !c.is_ascii_whitespace()) {
            if !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=')) {
                let shown = if c.is_ascii_graphic() {
                    format!("'{}'", c as char)
                } else {
                    format!("byte 0x{c:02x}")
                };
                return format!(
                    "invalid Base64 character {shown} on line {}",
                    first_line + i
                );
            }
        }
    }
    if len == 0 {
        return "PEM body is empty".into();
    }
    if len % 4 != 0 {
        return format!(
            "Base64 body is {len} characters, not a multiple of 4 (truncated, or '=' padding \
             missing)"
        );
    }
    let b64: Vec<u8> = body
        .iter()
        .flat_map(|l| l.iter().copied())
        .filter(|c| !c.is_ascii_whitespace())
        .collect();
    let pad = b64.iter().rev().take_while(|&&c| c == b'=').count();
    if pad > 2 || b64[..b64.len() - pad].contains(&b'=') {
        return "'=' padding inside the Base64 body (only the last 1 or 2 may be '=')".into();
    }
    "invalid Base64 encoding (non-zero bits in the last group)".into()
}

#[cfg(test)]
mod tests;
