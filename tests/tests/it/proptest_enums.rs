//! Arbitrary enums with data round-trip exactly in every position a struct
//! can be (a field, `Option`, list element, nullable list element, map
//! value, inside nested structs, inside another enum's variant), in the
//! default layout and in parquet-avro's union layout, with random variants
//! and nulls, through files of every codec, dictionary setting and page
//! version and through the page store (`proptest_layouts::round_trip`).

use std::collections::BTreeMap;

use chrono::NaiveDate;
use proptest::prelude::*;

use magnolify_parquet::ParquetType;

// `Num` is parquet-avro's union layout: optional `member0..memberN`, one set.
use crate::data_enums::Num;
use crate::proptest_layouts::{round_trip, small_vec, text};

/// The default layout: a `variant` tag and one optional group per variant
/// with data.
#[derive(ParquetType, Debug, Clone, PartialEq)]
pub(crate) enum Payment {
    Card {
        last4: String,
        expiry: NaiveDate,
    },
    Transfer(String),
    Cash,
    #[parquet(rename = "gift")]
    Voucher {
        code: Option<String>,
        amounts: Vec<i64>,
    },
    /// An enum inside a variant: a list of unions and an optional one.
    Split {
        parts: Vec<Num>,
        rest: Option<Num>,
    },
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Inner {
    last: Option<Payment>,
    measures: Vec<Num>,
}

#[derive(ParquetType, Debug, Clone, PartialEq)]
struct Order {
    id: u32,
    payment: Payment,
    refund: Option<Payment>,
    history: Vec<Payment>,
    gaps: Option<Vec<Option<Payment>>>,
    by_shop: BTreeMap<String, Payment>,
    maybe_by_shop: Option<BTreeMap<String, Option<Num>>>,
    inner: Inner,
    maybe_inner: Option<Inner>,
    measure: Num,
}

/// Enums in two-level lists, parquet-avro's list layout.
#[derive(ParquetType, Debug, Clone, PartialEq)]
#[parquet(list = "two-level")]
struct Order2 {
    id: u32,
    history: Vec<Payment>,
    measures: Option<Vec<Num>>,
}

fn num() -> impl Strategy<Value = Num> {
    prop_oneof![
        any::<i32>().prop_map(Num::Int),
        text().prop_map(Num::Text),
        (-1e9..1e9f64, any::<i16>()).prop_map(|(x, y)| Num::Point { x, y: f64::from(y) / 4.0 }),
    ]
}

fn payment() -> impl Strategy<Value = Payment> {
    prop_oneof![
        (text(), 0..3_652_059i32).prop_map(|(last4, day)| Payment::Card {
            last4,
            expiry: NaiveDate::from_num_days_from_ce_opt(day + 1).expect("a day of years 1..=9999"),
        }),
        text().prop_map(Payment::Transfer),
        Just(Payment::Cash),
        (proptest::option::of(text()), small_vec(any::<i64>()))
            .prop_map(|(code, amounts)| Payment::Voucher { code, amounts }),
        (small_vec(num()), proptest::option::of(num())).prop_map(|(parts, rest)| Payment::Split { parts, rest }),
    ]
}

fn inner() -> impl Strategy<Value = Inner> {
    (proptest::option::of(payment()), small_vec(num())).prop_map(|(last, measures)| Inner { last, measures })
}

fn order() -> impl Strategy<Value = Order> {
    (
        any::<u32>(),
        payment(),
        proptest::option::of(payment()),
        small_vec(payment()),
        proptest::option::of(small_vec(proptest::option::of(payment()))),
        prop::collection::btree_map(text(), payment(), 0..3),
        proptest::option::of(prop::collection::btree_map(text(), proptest::option::of(num()), 0..3)),
        inner(),
        proptest::option::of(inner()),
        num(),
    )
        .prop_map(|(id, payment, refund, history, gaps, by_shop, maybe_by_shop, inner, maybe_inner, measure)| {
            Order { id, payment, refund, history, gaps, by_shop, maybe_by_shop, inner, maybe_inner, measure }
        })
}

fn order2() -> impl Strategy<Value = Order2> {
    (any::<u32>(), small_vec(payment()), proptest::option::of(small_vec(num())))
        .prop_map(|(id, history, measures)| Order2 { id, history, measures })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, max_shrink_iters: 200, ..ProptestConfig::default() })]

    #[test]
    fn enums_in_every_position_round_trip(records in prop::collection::vec(order(), 0..8)) {
        round_trip(&records)?;
    }

    #[test]
    fn enums_in_two_level_lists_round_trip(records in prop::collection::vec(order2(), 0..8)) {
        round_trip(&records)?;
    }
}
