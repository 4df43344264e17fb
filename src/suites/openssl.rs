//! The OpenSSL peer: `openssl speed` run as a child process, its machine-readable output
//! (`-mr`) parsed. Used beside RSA latency ([`super::rsa_latency`]) and by `bench peers`
//! ([`super::peers`]) for RSA sign and the ciphers. Every runner gives `None` when openssl is
//! missing, fails or does not know what was asked.
use crate::bench::Seconds;

/// Runs `openssl speed -elapsed -mr <args>` and returns its standard output, or `None` when
/// openssl is missing or fails. `-elapsed` makes OpenSSL time by the wall clock, as every
/// parcrypt figure is (its default is CPU time, which flatters it on a loaded machine).
pub fn openssl_speed(args: &[&str]) -> Option<String> {
    let out = std::process::Command::new("openssl")
        .arg("speed")
        .args(["-elapsed", "-mr"])
        .args(args)
        .output()
        .ok()?;
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `openssl speed -seconds S rsaBITS` → seconds per sign, or `None` if openssl is missing or
/// does not know the size.
pub fn openssl_sign_seconds(bits: u32, seconds: u32) -> Option<Seconds> {
    let text = openssl_speed(&["-seconds", &seconds.to_string(), &format!("rsa{bits}")])?;
    parse_sign_seconds(&text, bits)
}

/// The sign time in `openssl speed -mr` output: the line `+F2:<index>:<bits>:<sign/s>:<verify/s>`.
pub fn parse_sign_seconds(text: &str, bits: u32) -> Option<Seconds> {
    text.lines().find_map(|l| {
        let f: Vec<&str> = l.strip_prefix("+F2:")?.split(':').collect();
        let per_s: f64 = f.get(2)?.parse().ok()?;
        (f.get(1)? == &bits.to_string() && per_s > 0.0).then(|| 1.0 / per_s)
    })
}

/// `openssl speed -seconds S -bytes N -evp CIPHER` → bytes per second, or `None`. Blowfish
/// and RC4 live in OpenSSL 3's legacy provider, which is loaded (with the default one) first;
/// an OpenSSL without providers is asked plainly.
pub fn openssl_cipher_bytes_per_s(cipher: &str, bytes: usize, seconds: u32) -> Option<f64> {
    let (secs, len) = (seconds.to_string(), bytes.to_string());
    let common = ["-seconds", &secs, "-bytes", &len, "-evp", cipher];
    let legacy = ["-provider", "legacy", "-provider", "default"];
    let with_legacy: Vec<&str> = legacy.iter().chain(&common).copied().collect();
    openssl_speed(&with_legacy)
        .and_then(|t| parse_cipher_bytes_per_s(&t))
        .or_else(|| openssl_speed(&common).and_then(|t| parse_cipher_bytes_per_s(&t)))
}

/// The throughput in `openssl speed -mr -bytes N` output: the line `+F:<i>:<name>:<bytes/s>`.
pub fn parse_cipher_bytes_per_s(text: &str) -> Option<f64> {
    text.lines().find_map(|l| {
        let f: Vec<&str> = l.strip_prefix("+F:")?.split(':').collect();
        let v: f64 = f.get(2)?.parse().ok()?;
        (v > 0.0).then_some(v)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openssl_speed_output_is_parsed() {
        let rsa = "+DTP:2048:private:rsa:1\n+R1:450:2048:0.38\n+F2:2:2048:1184.25:41822.5\n";
        assert_eq!(parse_sign_seconds(rsa, 2048), Some(1.0 / 1184.25));
        assert_eq!(parse_sign_seconds(rsa, 4096), None);
        let bf = "+R:3159:BF-ECB:0.370000\n+H:16384\n+F:25:BF-ECB:139883935.14\n";
        assert_eq!(parse_cipher_bytes_per_s(bf), Some(139_883_935.14));
        assert_eq!(parse_cipher_bytes_per_s("+F:12:rc4:0.00\n"), None);
    }
}
