//! The JSON form and its exact comparison, tested on the cases fixtures have.

use super::*;

#[test]
fn diff_is_exact_on_numbers_and_orderless_on_maps() {
    let mut out = Vec::new();
    diff(&float(-0.0), &serde_json::json!(0.0), "x", &mut out);
    diff(&Value::from(1u64), &serde_json::json!(1.0), "y", &mut out);
    assert_eq!(out.len(), 2, "{out:?}");
    out.clear();
    let m: HashMap<i32, String> = [(1, "a".to_owned()), (2, "b".to_owned())].into();
    diff(&m.to_json(Fmt::DEFAULT), &serde_json::json!([[2, "b"], [1, "a"]]), "m", &mut out);
    diff(&float(f64::NAN), &serde_json::json!("NaN"), "n", &mut out);
    diff(&Value::from(u64::MAX), &serde_json::json!(18446744073709551615u64), "u", &mut out);
    assert!(out.is_empty(), "{out:?}");
}

#[test]
fn floats_are_parsed_exactly() {
    let v = parse_exact(r#"{"a": [0.40015721321105957, -1e-7, 3], "s": "x\"1.5"}"#).expect("json");
    let mut out = Vec::new();
    diff(&float(0.40015721321105957), &v["a"][0], "a0", &mut out);
    diff(&float(-1e-7), &v["a"][1], "a1", &mut out);
    diff(&Value::from(3), &v["a"][2], "a2", &mut out);
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(v["s"], Value::from("x\"1.5"));
    diff(&float(0.4001572132110596), &v["a"][0], "off by one ulp", &mut out);
    assert_eq!(out.len(), 1);
}

#[test]
fn timestamps_follow_the_unit_and_the_zone() {
    let d = chrono::NaiveDate::from_ymd_opt(2024, 1, 2).and_then(|d| d.and_hms_nano_opt(3, 4, 5, 123_456_789));
    let d = d.expect("valid date");
    assert_eq!(d.to_json(Fmt::MILLIS), Value::from("2024-01-02T03:04:05.123"));
    assert_eq!(d.and_utc().to_json(Fmt::NANOS), Value::from("2024-01-02T03:04:05.123456789Z"));
    assert_eq!(d.and_utc().to_json(Fmt::INT96), Value::from("2024-01-02T03:04:05.123456789"));
    let far = chrono::NaiveDate::from_ymd_opt(-5, 1, 1).expect("valid date");
    assert_eq!(far.to_json(Fmt::DEFAULT), Value::from("-0005-01-01"));
}
