//! Named units for every energy, power, clock and thermal figure, so a signature says what it
//! carries (`fn energy(p: Watts, t: Seconds) -> Joules`). All are plain `f64` (or `u32` for
//! process nodes): the names document, they do not convert.

pub use crate::bench::Seconds;

/// Energy, in joules.
pub type Joules = f64;
/// Power, in watts.
pub type Watts = f64;
/// Clock frequency, in megahertz (the unit of the seed papers' tables and of cpufreq's
/// `scaling_available_frequencies` divided by 1000).
pub type MegaHertz = f64;
/// Supply voltage, in volts.
pub type Volts = f64;
/// Process node (feature size), in nanometres.
pub type Nanometres = u32;
/// Die area, in square millimetres.
pub type SquareMillimetres = f64;
/// Effective switched capacitance, in nanofarads (watts = nF x 1e-9 x V^2 x Hz).
pub type NanoFarads = f64;
/// Absolute temperature, in kelvin.
pub type Kelvin = f64;
/// Temperature, in degrees Celsius.
pub type Celsius = f64;
/// Thermal resistance from junction to ambient, in kelvin per watt.
pub type KelvinPerWatt = f64;
/// A lifetime, in years.
pub type Years = f64;

/// Zero degrees Celsius in kelvin.
pub const ZERO_CELSIUS_K: Kelvin = 273.15;

/// Degrees Celsius to kelvin.
pub fn celsius_to_kelvin(c: Celsius) -> Kelvin {
    c + ZERO_CELSIUS_K
}

/// Kelvin to degrees Celsius.
pub fn kelvin_to_celsius(k: Kelvin) -> Celsius {
    k - ZERO_CELSIUS_K
}

/// Dynamic power of one core, `C_eff x V^2 x f`, in watts.
pub fn cv2f(c_eff: NanoFarads, volts: Volts, mhz: MegaHertz) -> Watts {
    c_eff * 1e-9 * volts * volts * mhz * 1e6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions() {
        assert_eq!(celsius_to_kelvin(45.0), 318.15);
        assert!((kelvin_to_celsius(318.15) - 45.0).abs() < 1e-12);
        // 1 nF at 1 V and 1000 MHz switches 1 W.
        assert!((cv2f(1.0, 1.0, 1000.0) - 1.0).abs() < 1e-12);
    }
}
