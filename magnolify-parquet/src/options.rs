//! Per-field options that change a type's Parquet form: list layout,
//! timestamp unit, decimal precision and scale. The derive turns
//! `#[parquet(...)]` attributes into a constant of this type per field.

/// How a list (`Vec<T>`) is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ListLayout {
    /// The format's standard form, read by every modern tool:
    /// `group l (LIST) { repeated group list { <element> } }`.
    #[default]
    ThreeLevel,
    /// parquet-avro's default (old) form: `group l (LIST) { repeated <T> array; }`.
    /// Elements cannot be null.
    TwoLevel,
    /// A bare repeated field (1-level): `repeated <T> l;`. The list cannot be
    /// null and its elements cannot be null.
    Repeated,
}

/// Unit of a TIME or TIMESTAMP column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TimeUnit {
    /// Milliseconds.
    Millis,
    /// Microseconds (the default).
    Micros,
    /// Nanoseconds.
    Nanos,
}

impl TimeUnit {
    /// Units of this kind in one second.
    pub const fn per_second(self) -> i64 {
        match self {
            TimeUnit::Millis => 1_000,
            TimeUnit::Micros => 1_000_000,
            TimeUnit::Nanos => 1_000_000_000,
        }
    }

    #[allow(dead_code)] // used by the logical-type modules behind features
    pub(crate) fn to_parquet(self) -> parquet::basic::TimeUnit {
        match self {
            TimeUnit::Millis => parquet::basic::TimeUnit::MILLIS,
            TimeUnit::Micros => parquet::basic::TimeUnit::MICROS,
            TimeUnit::Nanos => parquet::basic::TimeUnit::NANOS,
        }
    }

    #[allow(dead_code)]
    pub(crate) fn from_parquet(unit: &parquet::basic::TimeUnit) -> Option<Self> {
        match unit {
            parquet::basic::TimeUnit::MILLIS => Some(TimeUnit::Millis),
            parquet::basic::TimeUnit::MICROS => Some(TimeUnit::Micros),
            parquet::basic::TimeUnit::NANOS => Some(TimeUnit::Nanos),
        }
    }
}

/// Physical type that holds a DECIMAL column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum DecimalPhysical {
    /// INT32 up to precision 9, INT64 up to 18, else the shortest
    /// FIXED_LEN_BYTE_ARRAY (what Spark, DuckDB and arrow-rs write).
    #[default]
    Auto,
    /// INT32 (precision 1..=9).
    Int32,
    /// INT64 (precision 1..=18).
    Int64,
    /// FIXED_LEN_BYTE_ARRAY of the shortest length for the precision.
    Fixed,
    /// BYTE_ARRAY (any precision).
    Binary,
}

/// A bloom filter asked for a column (`#[parquet(bloom_filter)]`, or
/// `bloom_filter(fpp = 0.01, ndv = 100000)`): `None` parts take the
/// writer's defaults.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct BloomFilterSpec {
    /// False-positive probability, in (0, 1).
    pub fpp: Option<f64>,
    /// Distinct values expected in a row group.
    pub ndv: Option<u64>,
}

/// DECIMAL(precision, scale) of a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DecimalSpec {
    /// Total digits, 1..=76.
    pub precision: u8,
    /// Digits after the point, 0..=precision.
    pub scale: u8,
    /// The physical type to write.
    pub physical: DecimalPhysical,
}

/// The options of one field. Build them with the `const` methods:
///
/// ```
/// use magnolify_parquet::{FieldOptions, ListLayout, TimeUnit};
/// const OPTS: FieldOptions = FieldOptions::new().list(ListLayout::TwoLevel).timestamp(TimeUnit::Millis);
/// assert_eq!(OPTS.list, ListLayout::TwoLevel);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct FieldOptions {
    /// Layout of lists in this field (at every nesting).
    pub list: ListLayout,
    /// Unit of TIME/TIMESTAMP values; `None` is micros.
    pub time_unit: Option<TimeUnit>,
    /// Whether a time or timestamp written with digits finer than the unit
    /// is an error (`true`, `#[parquet(exact)]`) rather than truncated
    /// toward the past (`false`, the default).
    pub exact_time: bool,
    /// DECIMAL precision and scale; needed by decimal types.
    pub decimal: Option<DecimalSpec>,
    /// Whether text is annotated JSON rather than STRING
    /// (`#[parquet(json)]`): the column holds JSON documents, which engines
    /// without a VARIANT type read as JSON.
    pub json: bool,
}

impl FieldOptions {
    /// The defaults: three-level lists, micros truncating finer digits, no
    /// decimal spec.
    pub const DEFAULT: FieldOptions = FieldOptions::new();

    /// The defaults.
    pub const fn new() -> Self {
        FieldOptions { list: ListLayout::ThreeLevel, time_unit: None, exact_time: false, decimal: None, json: false }
    }

    /// With list layout `list`.
    pub const fn list(mut self, list: ListLayout) -> Self {
        self.list = list;
        self
    }

    /// With timestamp/time unit `unit`.
    pub const fn timestamp(mut self, unit: TimeUnit) -> Self {
        self.time_unit = Some(unit);
        self
    }

    /// Times and timestamps whose digits are finer than the unit are an
    /// error when written, instead of truncated toward the past.
    ///
    /// ```
    /// use magnolify_parquet::{FieldOptions, TimeUnit};
    /// const OPTS: FieldOptions = FieldOptions::new().timestamp(TimeUnit::Millis).exact_time();
    /// assert!(OPTS.exact_time && !FieldOptions::DEFAULT.exact_time);
    /// ```
    pub const fn exact_time(mut self) -> Self {
        self.exact_time = true;
        self
    }

    /// Text annotated JSON instead of STRING. What is written is not
    /// checked to be JSON (`serde_json::Value`, feature `json`, writes only
    /// JSON).
    ///
    /// ```
    /// use magnolify_parquet::{schema, FieldOptions, ParquetSchema};
    /// use parquet::basic::Repetition;
    ///
    /// let node = String::schema("doc", Repetition::REQUIRED, &FieldOptions::new().json())?;
    /// assert_eq!(schema::to_text(&node).trim(), "REQUIRED BYTE_ARRAY doc (JSON);");
    /// # Ok::<(), magnolify_parquet::Error>(())
    /// ```
    pub const fn json(mut self) -> Self {
        self.json = true;
        self
    }

    /// With DECIMAL(precision, scale), the physical type chosen by precision.
    pub const fn decimal(mut self, precision: u8, scale: u8) -> Self {
        self.decimal = Some(DecimalSpec { precision, scale, physical: DecimalPhysical::Auto });
        self
    }

    /// With the decimal's physical type forced.
    pub const fn decimal_physical(mut self, physical: DecimalPhysical) -> Self {
        if let Some(spec) = &mut self.decimal {
            spec.physical = physical;
        }
        self
    }

    /// The unit of times, micros when not set.
    pub const fn unit(&self) -> TimeUnit {
        match self.time_unit {
            Some(u) => u,
            None => TimeUnit::Micros,
        }
    }
}
