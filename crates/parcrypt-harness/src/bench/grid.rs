//! Parameter grids, like hyperfine's `-L name a,b,c`: named lists of values whose cartesian
//! product is swept in a stable order, the first parameter outermost.
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::fmt;

/// One value of a parameter: a count (threads, chunk size, messages) or a name (a schedule).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ParamValue {
    /// A non-negative integer.
    Int(usize),
    /// Any other text.
    Text(String),
}

impl ParamValue {
    /// The integer, if this is one.
    pub fn as_usize(&self) -> Option<usize> {
        match self {
            ParamValue::Int(n) => Some(*n),
            ParamValue::Text(_) => None,
        }
    }
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Int(n) => write!(f, "{n}"),
            ParamValue::Text(s) => f.write_str(s),
        }
    }
}

/// One point of a grid: each parameter's name with its value, in the grid's order.
pub type Point = Vec<(String, ParamValue)>;

/// Looks a parameter up by name in a point.
pub fn lookup<'a>(point: &'a Point, name: &str) -> Option<&'a ParamValue> {
    point.iter().find(|(n, _)| n == name).map(|(_, v)| v)
}

/// Named lists of values; [`Grid::points`] is their cartesian product.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Grid {
    params: Vec<(String, Vec<ParamValue>)>,
}

impl Grid {
    /// An empty grid (its product is one point with no parameters).
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a parameter; an empty name or list, or a name already used, is an error.
    pub fn with(mut self, name: &str, values: Vec<ParamValue>) -> Result<Self> {
        let bad = |msg: String| Err(Error::InvalidParameter(msg));
        if name.is_empty() {
            return bad("grid parameter with an empty name".into());
        }
        if values.is_empty() {
            return bad(format!("grid parameter '{name}' has no values"));
        }
        if self.params.iter().any(|(n, _)| n == name) {
            return bad(format!("grid parameter '{name}' given twice"));
        }
        self.params.push((name.to_string(), values));
        Ok(self)
    }

    /// Adds an integer parameter (`1..=8` or `[1, 2, 4]`).
    pub fn with_ints(self, name: &str, values: impl IntoIterator<Item = usize>) -> Result<Self> {
        self.with(name, values.into_iter().map(ParamValue::Int).collect())
    }

    /// Adds a text parameter.
    pub fn with_strings<S: Into<String>>(
        self,
        name: &str,
        values: impl IntoIterator<Item = S>,
    ) -> Result<Self> {
        self.with(
            name,
            values
                .into_iter()
                .map(|s| ParamValue::Text(s.into()))
                .collect(),
        )
    }

    /// Adds a parameter from a comma-separated list as typed on a command line ("1,2,4" or
    /// "static,dynamic"): integers if every item is one, otherwise all items are text.
    pub fn with_list(self, name: &str, list: &str) -> Result<Self> {
        let items: Vec<&str> = list.split(',').map(str::trim).collect();
        if items.iter().any(|item| item.is_empty()) {
            return Err(Error::InvalidParameter(format!(
                "empty item in the list '{list}' of grid parameter '{name}'"
            )));
        }
        let ints: Option<Vec<usize>> = items.iter().map(|item| item.parse().ok()).collect();
        match ints {
            Some(ints) => self.with_ints(name, ints),
            None => self.with_strings(name, items),
        }
    }

    /// The parameter names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.params.iter().map(|(n, _)| n.as_str())
    }

    /// Number of points (the product of the list lengths), e.g. a progress bar's total.
    pub fn len(&self) -> usize {
        self.params.iter().map(|(_, v)| v.len()).product()
    }

    /// Whether the grid has no points (never true: lists are not empty).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every combination of values, the first parameter outermost (it changes slowest).
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        let lists: Vec<Vec<usize>> = self
            .params
            .iter()
            .map(|(_, v)| (0..v.len()).collect())
            .collect();
        Product::new(lists).map(move |indices| {
            self.params
                .iter()
                .zip(indices)
                .map(|((name, values), i)| (name.clone(), values[i].clone()))
                .collect()
        })
    }
}

/// The cartesian product of lists, the first list outermost: `[[1, 2], [a, b]]` gives
/// `[1, a], [1, b], [2, a], [2, b]`. No lists give one empty combination; an empty list, none.
pub fn product<T: Clone>(lists: Vec<Vec<T>>) -> Product<T> {
    Product::new(lists)
}

/// Iterator over a cartesian product; see [`product`].
#[derive(Debug, Clone)]
pub struct Product<T> {
    lists: Vec<Vec<T>>,
    /// Index into each list of the next combination; `None` when finished.
    next: Option<Vec<usize>>,
}

impl<T: Clone> Product<T> {
    fn new(lists: Vec<Vec<T>>) -> Self {
        let next = (!lists.iter().any(Vec::is_empty)).then(|| vec![0; lists.len()]);
        Self { lists, next }
    }
}

impl<T: Clone> Iterator for Product<T> {
    type Item = Vec<T>;

    fn next(&mut self) -> Option<Vec<T>> {
        let indices = self.next.as_mut()?;
        let item = self
            .lists
            .iter()
            .zip(indices.iter())
            .map(|(list, &i)| list[i].clone())
            .collect();
        // Odometer: bump the last index, carrying leftwards; done when the first overflows.
        let mut pos = indices.len();
        loop {
            if pos == 0 {
                self.next = None;
                break;
            }
            pos -= 1;
            indices[pos] += 1;
            if indices[pos] < self.lists[pos].len() {
                break;
            }
            indices[pos] = 0;
        }
        Some(item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn product_is_in_odometer_order() {
        let all: Vec<_> = product(vec![vec![1, 2], vec![10, 20, 30]]).collect();
        assert_eq!(all, [[1, 10], [1, 20], [1, 30], [2, 10], [2, 20], [2, 30]]);
    }

    #[test]
    fn product_edge_cases() {
        assert_eq!(
            product::<u8>(vec![]).collect::<Vec<_>>(),
            [Vec::<u8>::new()]
        );
        assert_eq!(product(vec![vec![1], vec![]]).count(), 0);
        assert_eq!(product(vec![vec!['x']]).collect::<Vec<_>>(), [['x']]);
    }

    #[test]
    fn grid_points_carry_names_first_parameter_outermost() {
        let grid = Grid::new()
            .with_strings("schedule", ["static", "dynamic"])
            .unwrap()
            .with_ints("threads", [1, 2])
            .unwrap();
        assert_eq!(grid.len(), 4);
        assert_eq!(grid.names().collect::<Vec<_>>(), ["schedule", "threads"]);
        let shown: Vec<String> = grid
            .points()
            .map(|p| {
                p.iter()
                    .map(|(n, v)| format!("{n}={v}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        assert_eq!(
            shown,
            [
                "schedule=static threads=1",
                "schedule=static threads=2",
                "schedule=dynamic threads=1",
                "schedule=dynamic threads=2",
            ]
        );
        let first = grid.points().next().unwrap();
        assert_eq!(
            lookup(&first, "threads").and_then(ParamValue::as_usize),
            Some(1)
        );
        assert_eq!(lookup(&first, "nope"), None);
    }

    #[test]
    fn lists_from_the_command_line() {
        let grid = Grid::new().with_list("threads", "1, 2,4").unwrap();
        let values: Vec<_> = grid.points().map(|p| p[0].1.clone()).collect();
        assert_eq!(
            values,
            [ParamValue::Int(1), ParamValue::Int(2), ParamValue::Int(4)]
        );
        let grid = Grid::new().with_list("s", "static,4").unwrap();
        let values: Vec<_> = grid.points().map(|p| p[0].1.clone()).collect();
        assert_eq!(
            values,
            [
                ParamValue::Text("static".into()),
                ParamValue::Text("4".into())
            ]
        );
        assert!(Grid::new().with_list("t", "1,,2").is_err());
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert!(Grid::new().with_ints("t", []).is_err());
        assert!(Grid::new().with_ints("", [1]).is_err());
        let err = Grid::new()
            .with_ints("t", [1])
            .unwrap()
            .with_ints("t", [2])
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid parameter: grid parameter 't' given twice"
        );
        let empty = Grid::new();
        assert_eq!((empty.len(), empty.points().count()), (1, 1));
    }

    #[test]
    fn values_serialize_untagged() {
        let json = serde_json::to_string(&[ParamValue::Int(4), ParamValue::Text("x".into())]);
        assert_eq!(json.unwrap(), "[4,\"x\"]");
    }
}
