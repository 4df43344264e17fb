//! Lifetime reliability (PaRSA, sections 4.3 and 5.4): temperature from sensors or a thermal
//! model, RAMP MTTF for electromigration, stress migration, TDDB and thermal cycling, and the
//! % change between two configurations in Table 9's form.
//!
//! - [`thermal`]: sensors (`/sys/class/thermal`, `/sys/class/hwmon`) and `T = T_amb + R_th P`;
//! - [`ramp`]: the four mechanisms with the seed's constants, combined by adding failure
//!   rates, relative to a documented [`Reference`](ramp::Reference);
//! - [`assess`]: power -> temperature -> MTTF for a preset at an operating point;
//! - [`table9`]: the paper's Table 9 beside parcrypt's figures.
//!
//! ```
//! use parcrypt_lab::energy::presets::preset;
//! use parcrypt_lab::reliability::assess::{TemperatureChoice, at, compare};
//! let c2d = preset("core2duo", None)?;
//! let m = TemperatureChoice::Model;
//! let cmp = compare(&c2d, &at(22, 800.0), &at(22, 2800.0), (&m, &m))?;
//! assert!(cmp.change.combined_pct > 0.0); // the low clock lasts longer
//! # Ok::<(), parcrypt_lab::energy::EnergyError>(())
//! ```
pub mod assess;
pub mod ramp;
pub mod table9;
pub mod thermal;
