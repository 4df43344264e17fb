//! PEM armor as OpenSSL reads it: `-----BEGIN LABEL-----`, Base64 at any line width (64, 76,
//! 65, 48 or one long line), LF or CRLF line ends, whitespace anywhere in the body or after a
//! line, RFC 1421 headers (`Proc-Type: 4,ENCRYPTED`), and text before and after the block.
//!
//! What is really wrong gets its own one-line message: no END line, an END label that does not
//! match, a character outside Base64, a body whose length is not a whole number of 4-character
//! groups, misplaced `=` padding, an empty body. The Base64 is decoded by `base64ct`, whose
//! decoding time does not depend on the (secret) data; the body and the DER are kept in
//! [`Zeroizing`] buffers.
use base64ct::{Base64, Encoding};
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
    let lines: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .map(<[u8]>::trim_ascii)
        .collect();
    let begins: Vec<(usize, &[u8])> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, line)| Some((i, begin_label(line)?)))
        .collect();
    let &(start, label) = begins
        .iter()
        .find(|(_, label)| std::str::from_utf8(label).is_ok_and(&wanted))
        .or_else(|| begins.first())?;
    Some(decode_block(&lines, start, label))
}

/// The label of a `-----BEGIN LABEL-----` line.
fn begin_label(line: &[u8]) -> Option<&[u8]> {
    line.strip_prefix(b"-----BEGIN ")?.strip_suffix(b"-----")
}

fn decode_block(lines: &[&[u8]], start: usize, label: &[u8]) -> Result<PemBlock, String> {
    let label = std::str::from_utf8(label)
        .ok()
        .filter(|l| l.bytes().all(|b| b.is_ascii_graphic() || b == b' '))
        .ok_or("PEM BEGIN line has a label that is not printable ASCII")?
        .to_string();
    let end_line = format!("-----END {label}-----");
    let mut end = None;
    for (i, line) in lines.iter().enumerate().skip(start + 1) {
        if line.starts_with(b"-----END ") {
            if *line != end_line.as_bytes() {
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
    let mut body = &lines[start + 1..end];
    // RFC 1421 headers ("Name: value" lines, then a blank line) come before the Base64.
    let mut encrypted = false;
    let first = body
        .iter()
        .position(|l| !l.is_empty())
        .unwrap_or(body.len());
    if body.get(first).is_some_and(|l| l.contains(&b':')) {
        let headers_end = body[first..]
            .iter()
            .position(|l| l.is_empty())
            .map_or(body.len(), |i| first + i);
        encrypted = body[first..headers_end]
            .iter()
            .any(|h| h.starts_with(b"Proc-Type:") && contains(h, b"ENCRYPTED"));
        body = &body[headers_end..];
    }
    let der = if encrypted {
        Zeroizing::new(Vec::new()) // never decoded: the caller refuses encrypted blocks
    } else {
        decode_base64(body, start + 2 + (end - start - 1 - body.len()))?
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
fn decode_base64(body: &[&[u8]], first_line: usize) -> Result<Zeroizing<Vec<u8>>, String> {
    let mut b64 = Zeroizing::new(Vec::with_capacity(body.iter().map(|l| l.len()).sum()));
    for (i, line) in body.iter().enumerate() {
        for &c in line.iter().filter(|c| !c.is_ascii_whitespace()) {
            if !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=')) {
                let shown = if c.is_ascii_graphic() {
                    format!("'{}'", c as char)
                } else {
                    format!("byte 0x{c:02x}")
                };
                return Err(format!(
                    "invalid Base64 character {shown} on line {}",
                    first_line + i
                ));
            }
            b64.push(c);
        }
    }
    if b64.is_empty() {
        return Err("PEM body is empty".into());
    }
    if b64.len() % 4 != 0 {
        return Err(format!(
            "Base64 body is {} characters, not a multiple of 4 (truncated, or '=' padding missing)",
            b64.len()
        ));
    }
    let pad = b64.iter().rev().take_while(|&&c| c == b'=').count();
    if pad > 2 || b64[..b64.len() - pad].contains(&b'=') {
        return Err("'=' padding inside the Base64 body (only the last 1 or 2 may be '=')".into());
    }
    let mut der = Zeroizing::new(vec![0u8; b64.len() / 4 * 3 - pad]);
    let len = Base64::decode(&*b64, &mut der)
        .map_err(|_| "invalid Base64 encoding (non-zero bits in the last group)".to_string())?
        .len();
    der.truncate(len);
    Ok(der)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 35 bytes: the Base64 ends in "=" padding and holds "AAAA".
    const DER: &[u8] = b"parcrypt armor test \x00\x00\x00\x01\xfe\xff, the end";

    fn wrap(width: usize, eol: &str) -> String {
        let b64 = Base64::encode_string(DER);
        let body: Vec<&str> = b64
            .as_bytes()
            .chunks(width)
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect();
        format!(
            "-----BEGIN TEST-----{eol}{}{eol}-----END TEST-----{eol}",
            body.join(eol)
        )
    }

    fn ok(text: &str) -> PemBlock {
        decode(text.as_bytes(), |l| l == "TEST").unwrap().unwrap()
    }

    fn err(text: &str) -> String {
        decode(text.as_bytes(), |l| l == "TEST")
            .unwrap()
            .unwrap_err()
    }

    #[test]
    fn any_line_width_and_line_end_decodes() {
        for width in [4, 48, 64, 65, 76, 1000] {
            for eol in ["\n", "\r\n"] {
                let block = ok(&wrap(width, eol));
                assert_eq!(block.label, "TEST");
                assert_eq!(*block.der, DER, "width {width}");
                assert!(!block.encrypted);
            }
        }
    }

    #[test]
    fn whitespace_and_surrounding_text_are_ignored() {
        let padded: String = wrap(64, "\n")
            .lines()
            .map(|l| format!("{l} \t \n"))
            .collect();
        assert_eq!(*ok(&padded).der, DER);
        let spaced = wrap(20, "\n").replace("\n", "\n\n").replacen("A", " A", 1);
        assert_eq!(*ok(&spaced).der, DER);
        let around = format!("Bag Attributes\n    x: y\n{}trailing words", wrap(64, "\n"));
        assert_eq!(*ok(&around).der, DER);
        let no_final_eol = wrap(64, "\n").trim_end().to_string();
        assert_eq!(*ok(&no_final_eol).der, DER);
    }

    #[test]
    fn the_wanted_block_is_chosen_and_no_begin_is_none() {
        let two = format!(
            "{}{}",
            wrap(64, "\n").replace("TEST", "OTHER"),
            wrap(64, "\n")
        );
        assert_eq!(ok(&two).label, "TEST");
        let only_other = wrap(64, "\n").replace("TEST", "OTHER");
        let block = decode(only_other.as_bytes(), |l| l == "TEST")
            .unwrap()
            .unwrap();
        assert_eq!(block.label, "OTHER");
        assert!(decode(b"\x30\x82\x01\x00", |_| true).is_none());
        assert!(decode(b"no armor here", |_| true).is_none());
    }

    #[test]
    fn encrypted_headers_are_flagged() {
        let text = wrap(64, "\n").replacen(
            "-----\n",
            "-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\n",
            1,
        );
        assert!(ok(&text).encrypted);
        let comment = wrap(64, "\n").replacen("-----\n", "-----\nComment: hello\n\n", 1);
        let block = ok(&comment);
        assert!(!block.encrypted);
        assert_eq!(*block.der, DER);
    }

    #[test]
    fn real_defects_have_their_own_message() {
        let good = wrap(64, "\n");
        let cases = [
            (
                good.replace("-----END TEST-----\n", ""),
                "no \"-----END TEST-----\" line",
            ),
            (
                good.replace("END TEST", "END OTHER"),
                "does not match \"-----BEGIN TEST-----\"",
            ),
            (
                good.replacen('A', "*", 1),
                "invalid Base64 character '*' on line 2",
            ),
            (
                good.replacen('A', "\u{e9}", 1),
                "invalid Base64 character byte 0xc3 on line 2",
            ),
            (good.replacen("A", "", 1), "not a multiple of 4"),
            (good.replace('=', ""), "not a multiple of 4"),
            (good.replacen("AA", "A=", 1), "'=' padding inside"),
            (
                "-----BEGIN TEST-----\n\n-----END TEST-----\n".into(),
                "PEM body is empty",
            ),
            (
                format!("-----BEGIN TEST-----\nAAAA\n{good}"),
                "before the next BEGIN line (line 3)",
            ),
        ];
        for (text, needle) in cases {
            let msg = err(&text);
            assert!(msg.contains(needle), "{needle:?} not in {msg:?}");
            assert!(!msg.contains('\n'));
        }
    }
}
