//! PEM armor: every line width and line end, headers, real defects named, and the constant-time
//! whitespace compaction.
use super::*;
use base64ct::{Base64, Encoding};

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

#[test]
fn the_masks_match_the_branching_classes() {
    for c in 0..=255u8 {
        assert_eq!(ws_mask(c) == 0xff, c.is_ascii_whitespace(), "{c:#x}");
        assert!(ws_mask(c) == 0 || ws_mask(c) == 0xff);
        assert_eq!(eq_mask(c, b'-') == 0xff, c == b'-', "{c:#x}");
    }
}

#[test]
fn compaction_drops_every_whitespace_and_keeps_the_rest_in_order() {
    let lines: [&[u8]; 4] = [b" AB\tC\r", b"", b"\x0c D E ", b"F=\r"];
    assert_eq!(&*compact(&lines), b"ABCDEF=");
    assert!(compact(&[b" \t\r".as_slice()]).is_empty());
    assert!(compact(&[]).is_empty());
    // Every byte value that is not whitespace is kept, whatever it is.
    let all: Vec<u8> = (0..=255u8).collect();
    let kept: Vec<u8> = all
        .iter()
        .copied()
        .filter(|c| !c.is_ascii_whitespace())
        .collect();
    assert_eq!(*compact(&[&all[..]]), kept);
}

#[test]
fn a_bad_character_is_named_even_when_the_length_is_off_too() {
    let good = wrap(64, "\n");
    // Three characters more and three less: the length is refused first, the message still
    // names the character.
    for bad in ["*!?", "-"] {
        let msg = err(&good.replacen('A', bad, 1));
        assert!(msg.contains("invalid Base64 character '"), "{msg}");
        assert!(msg.contains("on line 2"), "{msg}");
    }
    // CR line ends and trailing spaces on a body line are whitespace, not defects.
    let crlf = wrap(10, " \r\n");
    assert_eq!(*ok(&crlf).der, DER);
}

#[test]
fn a_header_line_number_is_counted_in_messages() {
    let text = wrap(64, "\n").replacen("-----\n", "-----\nComment: x\n\n", 1);
    let msg = err(&text.replacen('A', "*", 1));
    assert!(msg.contains("on line 4"), "{msg}");
}

/// The constant-time decoder gives base64ct's bytes for every length (every padding) and
/// refuses what base64ct refuses.
#[test]
fn the_constant_time_decoder_agrees_with_base64ct() {
    for len in 1..70usize {
        let data: Vec<u8> = (0..len).map(|i| (i * 37 + len) as u8).collect();
        let b64 = Base64::encode_string(&data);
        assert_eq!(&decode_ct(b64.as_bytes()).unwrap()[..], &data[..], "{len}");
        let mut bad = b64.clone().into_bytes();
        bad[0] = b'*';
        assert!(decode_ct(&bad).is_none());
        let mut mid = b64.into_bytes();
        mid[1] = b'=';
        assert!(decode_ct(&mid).is_none());
    }
}
