//! How the values of a column compare, as the `parquet` crate compares them
//! for statistics (its `compare_greater`): by physical type and the sort
//! order of the logical or converted type.

use std::cmp::Ordering;

use parquet::basic::{ConvertedType, LogicalType, SortOrder, Type as PhysicalType};
use parquet::data_type::Int96;
use parquet::schema::types::ColumnDescriptor;

/// What decides how a column's values compare and how their bounds are written.
#[derive(Debug, Clone, Copy)]
pub(super) struct Kind {
    pub(super) order: Order,
    pub(super) physical: PhysicalType,
    /// Binary min/max may be cut to a length: BYTE_ARRAY and
    /// FIXED_LEN_BYTE_ARRAY but DECIMAL and FLOAT16, whose orders a cut breaks
    /// (`can_truncate_value`).
    pub(super) truncatable: bool,
    /// A STRING column: its cuts keep whole characters when the value is
    /// valid UTF-8 (`is_utf8`).
    pub(super) utf8: bool,
    /// A signed sort order: chunk statistics then also fill the deprecated
    /// min/max fields (`backwards_compatible_min_max`).
    pub(super) signed: bool,
    /// FLOAT, DOUBLE and FLOAT16 columns have NaN counts (`get_nan_count`).
    pub(super) floating: bool,
}

/// How the values of a column compare: the crate's `compare_greater`,
/// decided by the physical type and the sort order of the logical or
/// converted type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Order {
    /// No min or max: INTERVAL has no order, and the crate keeps bounding
    /// boxes instead for GEOMETRY and GEOGRAPHY (`write_slice`).
    Unordered,
    /// `false < true`.
    Bool,
    I32,
    /// INT32 of an unsigned type (UINT_8/16/32, unsigned INTEGER).
    U32,
    I64,
    /// INT64 of an unsigned type (UINT_64, unsigned INTEGER).
    U64,
    /// INT96 timestamps: by day, then nanosecond of the day (`Int96::cmp`).
    Int96,
    /// IEEE 754 total order, NaN aside.
    F32,
    F64,
    /// Unsigned lexicographic order of the bytes.
    Bytes,
    /// DECIMAL: signed big-endian numbers of any length
    /// (`compare_greater_byte_array_decimals`).
    Decimal,
    /// FLOAT16 (two bytes, little endian): total order, NaN aside.
    F16,
}

impl Kind {
    pub(super) fn of(descr: &ColumnDescriptor) -> Self {
        let physical = descr.physical_type();
        let decimal = is_decimal(descr);
        let float16 = descr.logical_type_ref() == Some(&LogicalType::Float16);
        Kind {
            order: Order::of(descr),
            physical,
            truncatable: match physical {
                PhysicalType::FIXED_LEN_BYTE_ARRAY => !decimal && !float16,
                PhysicalType::BYTE_ARRAY => !decimal,
                _ => false,
            },
            utf8: descr.logical_type_ref() == Some(&LogicalType::String)
                || descr.converted_type() == ConvertedType::UTF8,
            signed: descr.sort_order().is_signed(),
            floating: matches!(physical, PhysicalType::FLOAT | PhysicalType::DOUBLE)
                || (physical == PhysicalType::FIXED_LEN_BYTE_ARRAY && float16),
        }
    }
}

/// A DECIMAL by its converted or its logical type (`is_decimal_descr`).
pub(super) fn is_decimal(descr: &ColumnDescriptor) -> bool {
    descr.converted_type() == ConvertedType::DECIMAL
        || matches!(descr.logical_type_ref(), Some(LogicalType::Decimal(_)))
}

impl Order {
    pub(super) fn of(descr: &ColumnDescriptor) -> Self {
        let geospatial = matches!(descr.logical_type_ref(), Some(LogicalType::Geometry(_) | LogicalType::Geography(_)));
        if geospatial || descr.converted_type() == ConvertedType::INTERVAL {
            return Order::Unordered;
        }
        // The descriptor's sort order already maps the logical type, else the
        // converted type, else the physical type.
        let sort = descr.sort_order();
        match descr.physical_type() {
            PhysicalType::BOOLEAN => Order::Bool,
            PhysicalType::INT32 if sort == SortOrder::UNSIGNED => Order::U32,
            PhysicalType::INT32 => Order::I32,
            PhysicalType::INT64 if sort == SortOrder::UNSIGNED => Order::U64,
            PhysicalType::INT64 => Order::I64,
            PhysicalType::INT96 => Order::Int96,
            PhysicalType::FLOAT => Order::F32,
            PhysicalType::DOUBLE => Order::F64,
            // Only FLOAT16 has a total order among the binary types.
            PhysicalType::FIXED_LEN_BYTE_ARRAY if sort == SortOrder::TOTAL_ORDER => Order::F16,
            PhysicalType::BYTE_ARRAY | PhysicalType::FIXED_LEN_BYTE_ARRAY if is_decimal(descr) => Order::Decimal,
            PhysicalType::BYTE_ARRAY | PhysicalType::FIXED_LEN_BYTE_ARRAY => Order::Bytes,
        }
    }

    /// Compares two byte array values.
    pub(super) fn cmp_bytes(self, a: &[u8], b: &[u8]) -> Ordering {
        match self {
            Order::Decimal => decimal_cmp(a, b),
            Order::F16 => f16_key(a).cmp(&f16_key(b)),
            _ => a.cmp(b),
        }
    }

    /// Whether a byte array value is a NaN: only FLOAT16 has NaNs.
    pub(super) fn nan_bytes(self, v: &[u8]) -> bool {
        self == Order::F16 && f16_is_nan(v)
    }

    pub(super) fn cmp_i32(self, a: i32, b: i32) -> Ordering {
        match self {
            Order::U32 => (a as u32).cmp(&(b as u32)),
            _ => a.cmp(&b),
        }
    }

    pub(super) fn cmp_i64(self, a: i64, b: i64) -> Ordering {
        match self {
            Order::U64 => (a as u64).cmp(&(b as u64)),
            _ => a.cmp(&b),
        }
    }
}

/// Compares DECIMAL byte arrays as the big-endian two's complement numbers
/// they hold, whatever their lengths; an empty array is below every number.
pub(crate) fn decimal_cmp(a: &[u8], b: &[u8]) -> Ordering {
    let (Some(&a0), Some(&b0)) = (a.first(), b.first()) else {
        return a.len().cmp(&b.len());
    };
    let (a_negative, b_negative) = (a0 >= 0x80, b0 >= 0x80);
    if a_negative != b_negative {
        return b_negative.cmp(&a_negative);
    }
    // Same sign: the shorter number sign-extends to the longer one's width,
    // and numbers of one width and sign order like their bytes.
    let fill = if a_negative { 0xFF } else { 0 };
    let (long, short, swapped) = if a.len() >= b.len() { (a, b, false) } else { (b, a, true) };
    let (head, tail) = long.split_at(long.len() - short.len());
    let ord = match head.iter().find(|&&byte| byte != fill) {
        Some(byte) => byte.cmp(&fill),
        None => tail.cmp(short),
    };
    if swapped {
        ord.reverse()
    } else {
        ord
    }
}

/// The bits of a FLOAT16 (missing bytes read as zero: a FLOAT16 column's
/// values are two bytes).
pub(super) fn f16_bits(v: &[u8]) -> u16 {
    u16::from_le_bytes([v.first().copied().unwrap_or(0), v.get(1).copied().unwrap_or(0)])
}

/// An integer that orders FLOAT16 bits like the IEEE 754 total order: the
/// magnitude bits of negative values are flipped so that they order
/// backwards.
pub(crate) fn f16_key(v: &[u8]) -> i16 {
    let bits = f16_bits(v) as i16;
    bits ^ ((((bits >> 15) as u16) >> 1) as i16)
}

pub(crate) fn f16_is_nan(v: &[u8]) -> bool {
    f16_bits(v) & 0x7FFF > 0x7C00
}

/// INT96 timestamps order by day (the third word, signed), then by the
/// nanosecond of the day (the first two words, as a signed 64-bit number).
pub(super) fn int96_key(v: &Int96) -> (i32, i64) {
    let words = v.data();
    let word = |i: usize| words.get(i).copied().unwrap_or(0);
    let nanos = ((u64::from(word(1)) << 32) | u64::from(word(0))) as i64;
    (word(2) as i32, nanos)
}

/// Floats in the IEEE 754 total order through an integer key, so that their
/// min and max reduce like integers.
pub(super) trait TotalOrder: Copy {
    type Key: Copy + Ord;
    /// Above every key of a number (it is a NaN's).
    const ABOVE: Self::Key;
    /// Below every key of a number (it is a NaN's).
    const BELOW: Self::Key;
    fn key(self) -> Self::Key;
    fn from_key(key: Self::Key) -> Self;
    fn nan(self) -> bool;
}

/// The key of a float: its bits as a signed integer, with the bits below
/// the sign flipped for negative numbers so that they order downwards. The
/// mapping is its own inverse.
macro_rules! total_order {
    ($float:ty, $key:ty, $bits:ty, $sign:literal) => {
        impl TotalOrder for $float {
            type Key = $key;
            const ABOVE: $key = <$key>::MAX;
            const BELOW: $key = <$key>::MIN;
            #[inline(always)]
            fn key(self) -> $key {
                let bits = self.to_bits() as $key;
                bits ^ ((((bits >> $sign) as $bits) >> 1) as $key)
            }
            fn from_key(key: $key) -> $float {
                <$float>::from_bits((key ^ ((((key >> $sign) as $bits) >> 1) as $key)) as $bits)
            }
            #[inline(always)]
            fn nan(self) -> bool {
                self.is_nan()
            }
        }
    };
}

total_order!(f32, i32, u32, 31);
total_order!(f64, i64, u64, 63);
