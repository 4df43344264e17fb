//! `kara-seq`: the seed's sequential `karaMul` — one level of Karatsuba (or `depth` levels),
//! GMP multiplying the three half products one after another on the caller. It is the
//! reference of the parallel methods: the same split, the same composition, no threads.
use super::KaraConfig;
use super::karatsuba::{Karatsuba, Serial};

/// The sequential Karatsuba multiplier.
pub type KaraSeq = Karatsuba<Serial>;

/// A sequential Karatsuba multiplier; `config.helpers` is ignored (set to 0).
pub fn new(config: KaraConfig) -> KaraSeq {
    Karatsuba::new(
        "kara-seq",
        KaraConfig {
            helpers: 0,
            pin: false,
            ..config
        },
        Serial,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mul::Multiplier;
    use rug::Integer;

    #[test]
    fn one_level_by_default_and_deeper_on_request() {
        let a = (Integer::from(1) << 4099) - 1;
        let b = (Integer::from(1) << 3001) + 12345;
        for depth in [1, 2, 5] {
            let k = new(KaraConfig {
                depth,
                helpers: 3,
                ..KaraConfig::default()
            });
            assert_eq!(k.mul(&a, &b), Integer::from(&a * &b));
            assert_eq!(k.threads(), 1, "helpers are ignored");
        }
        assert!(new(KaraConfig::default()).describe().contains("1 level(s)"));
    }
}
