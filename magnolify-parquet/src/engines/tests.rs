//! Engine names, the report, and the rules of each engine on small schemas.

use super::{check, Engine, Severity};
use Engine::*;
use Severity::*;

/// The findings of `engine` on a schema text, as (column, severity).
fn findings(engine: Engine, schema: &str) -> Vec<(String, Severity)> {
    let message = parquet::schema::parser::parse_message_type(schema).expect("test schema parses");
    check(&message, engine).into_iter().map(|f| (f.column, f.severity)).collect()
}

#[test]
fn engines_parse_and_print() {
    for e in Engine::ALL {
        assert_eq!(e.name().parse::<Engine>(), Ok(e));
    }
    assert!("presto".parse::<Engine>().is_err());
}

/// (what the case shows, schema, the findings expected, in order).
type Case = (&'static str, &'static str, &'static [(&'static str, Severity)]);

/// Checks the findings of `engine` on each case.
fn check_cases(engine: Engine, cases: &[Case]) {
    for (case, schema, expected) in cases {
        let expected: Vec<(String, Severity)> = expected.iter().map(|(c, s)| ((*c).to_owned(), *s)).collect();
        assert_eq!(findings(engine, schema), expected, "{engine}: {case}");
    }
}

#[test]
fn times_need_spark_4_1_and_micros() {
    let f = findings(
        Spark,
        "message m { required int32 a (TIME(MILLIS,false)); required int64 b (TIME(MICROS,false));
         required int64 c (TIME(NANOS,false)); required int64 d (TIME(MICROS,true)); }",
    );
    assert_eq!(f.len(), 4);
    assert!(f.iter().all(|(_, s)| *s == Unreadable));
}

#[test]
fn spark() {
    check_cases(
        Spark,
        &[
            (
                "UUID, FLOAT16 and INTERVAL are unreadable",
                "message m { required fixed_len_byte_array(16) u (UUID); required fixed_len_byte_array(2) h (FLOAT16);
                 required fixed_len_byte_array(12) i (INTERVAL); required fixed_len_byte_array(16) plain; }",
                &[("u", Unreadable), ("h", Unreadable), ("i", Unreadable)],
            ),
            (
                "NANOS timestamps are unreadable",
                "message m { required int64 a (TIMESTAMP(NANOS,true)); required int64 b (TIMESTAMP(MICROS,false));
                 required int64 c (TIMESTAMP_MILLIS); required int96 d; }",
                &[("a", Unreadable)],
            ),
            (
                "unsigned integers widen",
                "message m { required int32 a (INTEGER(8,false)); required int64 b (UINT_64);
                 required int32 d (INT_16); required int64 e (INTEGER(64,true)); }",
                &[("a", Different), ("b", Different)],
            ),
            (
                "wide decimals and key-only maps are unreadable",
                "message m { required fixed_len_byte_array(20) a (DECIMAL(40,2)); required int64 b (DECIMAL(18,2));
                 required group s (MAP) { repeated group key_value { required binary key (STRING); } }
                 required group ok (MAP) { repeated group key_value { required binary key (STRING); optional int32 value; } } }",
                &[("a", Unreadable), ("s", Unreadable)],
            ),
        ],
    );
}

#[test]
fn duckdb() {
    check_cases(
        DuckDb,
        &[
            (
                "BSON is unreadable",
                "message m { required binary b (BSON); required binary j (JSON); }",
                &[("b", Unreadable)],
            ),
            (
                "FLOAT16 and wide decimals read differently",
                "message m { required fixed_len_byte_array(2) h (FLOAT16); required binary d (DECIMAL(50,10));
                 required fixed_len_byte_array(16) u (UUID); required fixed_len_byte_array(12) i (INTERVAL); }",
                &[("h", Different), ("d", Different)],
            ),
            (
                "times and timestamps",
                "message m { required int64 a (TIME(NANOS,false)); required int32 b (TIME(MILLIS,true));
                 required int64 c (TIMESTAMP(NANOS,true)); required int64 d (TIMESTAMP(NANOS,false));
                 required int64 e (TIME(MICROS,false)); }",
                &[("a", Different), ("b", Different), ("c", Different)],
            ),
        ],
    );
}

#[test]
fn pyarrow() {
    check_cases(
        PyArrow,
        &[(
            "ENUM, UUID, INTERVAL and INT96 read differently",
            "message m { required binary e (ENUM); required fixed_len_byte_array(16) u (UUID);
                 required fixed_len_byte_array(12) i (INTERVAL); required int96 t; required binary s (STRING);
                 required fixed_len_byte_array(2) h (FLOAT16); }",
            &[("e", Different), ("u", Different), ("i", Different), ("t", Different)],
        )],
    );
}

#[test]
fn trino() {
    check_cases(
        Trino,
        &[
            (
                "FLOAT16 and wide decimals are unreadable",
                "message m { required fixed_len_byte_array(2) h (FLOAT16); required binary d (DECIMAL(39,0));
                 required fixed_len_byte_array(16) u (UUID); }",
                &[("h", Unreadable), ("d", Unreadable)],
            ),
            (
                "unsigned and INTERVAL read differently",
                "message m { required int64 a (UINT_64); required int32 b (UINT_32); required int32 c (UINT_16);
                 required fixed_len_byte_array(12) i (INTERVAL); optional group g { required int64 n (UINT_64); } }",
                &[("a", Different), ("b", Different), ("i", Different), ("g.n", Different)],
            ),
            (
                "times and timestamps",
                "message m { required int32 a (TIME(MILLIS,false)); required int64 b (TIME(MICROS,false));
                 required int64 c (TIME(NANOS,false)); required int64 d (TIMESTAMP(NANOS,true));
                 required int64 e (TIMESTAMP(NANOS,false)); }",
                &[("a", Unreadable), ("c", Different), ("d", Different)],
            ),
        ],
    );
}
