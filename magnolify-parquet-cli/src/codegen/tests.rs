//! Exact output for schemas covering nesting, every list and map layout,
//! every logical type and odd names; and that outputs pass `rustfmt --check`.

use std::path::PathBuf;

use std::sync::Arc;

use parquet::schema::parser::parse_message_type;
use parquet::schema::types::Type;

use magnolify_parquet::engines::Engine;

use super::{generate, CodegenError, CodegenOptions};

fn opts() -> CodegenOptions {
    CodegenOptions {
        root_name: None,
        source: "data.parquet".to_owned(),
        command: "magnolify-parquet codegen data.parquet".to_owned(),
        engines: Vec::new(),
    }
}

/// Parses `schema`, then renames its nodes through `odd` (the schema text
/// cannot spell names with spaces, dots or control characters).
fn parse(schema: &str) -> Type {
    rename(&parse_message_type(schema).expect("test schema parses"))
}

fn odd(name: &str) -> String {
    name.replace("_SP_", " ").replace("_DOT_", ".").replace("_NL_", "\n").replace("_DASH_", "-")
}

fn rename(t: &Type) -> Type {
    let info = t.get_basic_info();
    let id = info.has_id().then(|| info.id());
    let name = odd(t.name());
    match t {
        Type::PrimitiveType { physical_type, type_length, scale, precision, .. } => {
            let sized =
                Type::primitive_type_builder(&name, *physical_type).with_length(*type_length).with_scale(*scale);
            let annotated = sized
                .with_precision(*precision)
                .with_converted_type(info.converted_type())
                .with_logical_type(info.logical_type_ref().cloned());
            annotated.with_repetition(info.repetition()).with_id(id).build().expect("renamed leaf builds")
        }
        Type::GroupType { fields, .. } => {
            let fields = fields.iter().map(|f| Arc::new(rename(f))).collect();
            let mut b = Type::group_type_builder(&name)
                .with_logical_type(info.logical_type_ref().cloned())
                .with_converted_type(info.converted_type())
                .with_fields(fields)
                .with_id(id);
            if info.has_repetition() {
                b = b.with_repetition(info.repetition());
            }
            b.build().expect("renamed group builds")
        }
    }
}

fn gen(schema: &str) -> String {
    generate(&parse(schema), &[], &opts()).expect("code is generated")
}

/// Checks `code` with `rustfmt --check` at its default settings.
pub(super) fn assert_rustfmt_clean(code: &str) {
    // A folder of its own (removed when dropped): tests run at once, and so may two runs.
    let dir = tempfile::Builder::new().prefix("magnolify-cli-fmt-").tempdir().expect("temp dir");
    let file: PathBuf = dir.path().join("generated.rs");
    std::fs::write(&file, code).expect("write temp file");
    if let Err(output) = super::rustfmt_check(dir.path(), &[file]) {
        panic!("rustfmt --check failed:\n{output}\n--- code ---\n{code}");
    }
}

const NESTED: &str = "message trip_record {
    required int64 trip_id (INTEGER(64,false)) = 1;
    optional group rider = 2 {
        required binary name (STRING);
        optional group address { required binary city (STRING); optional double lat; }
    }
}";

const LISTS: &str = "message lists {
    optional group three (LIST) { repeated group list { optional binary element (STRING); } }
    required group item_named (LIST) { repeated group list { required int32 item; } }
    required group two (LIST) { repeated int32 array; }
    required group tuple (LIST) { repeated group tuple_tuple { required int32 a; } }
    required group multi (LIST) { repeated group rec { required int32 a; required int32 b; } }
    repeated int32 bare;
    repeated group bare_group { required int32 x; }
    required group of_lists (LIST) { repeated group list { optional group element (LIST) { repeated group list { required int32 element (INTEGER(8,false)); } } } }
    required group stops (LIST) { repeated group list { required group element { required binary name (STRING); } } }
    repeated group line_items { required int32 qty; }
    optional group addresses (LIST) { repeated group list { optional group element { required binary city (STRING); } } }
    optional group address { required binary street (STRING); }
    required group categories (LIST) { repeated group categories_tuple { required int32 id; } }
    optional group trip { required group stops (LIST) { repeated group list { required group element { required int32 seq; } } } }
}";

const MAPS: &str = "message maps {
    required group scores (MAP) { repeated group key_value { required binary key (STRING); optional int64 value; } }
    optional group places (MAP) { repeated group key_value { required int32 key; required group value { required double lat; } } }
    required group legacy (MAP_KEY_VALUE) { repeated group map { required binary key (UTF8); required int32 value; } }
    required group keys_only (MAP) { repeated group key_value { required binary key (STRING); } }
    required group weights (MAP) { repeated group key_value { required double key; required int32 value; } }
}";

const LOGICAL: &str = "message logical {
    required boolean b; required int32 i; required int64 l; required float f; required double d;
    required int32 i8 (INTEGER(8,true)); required int32 i16 (INT_16); required int32 u8 (UINT_8);
    required int32 u16 (INTEGER(16,false)); required int32 u32 (UINT_32); required int64 u64 (INTEGER(64,false));
    required binary s (STRING); required binary e (ENUM); required binary j (JSON); required binary bs (BSON);
    required binary raw; required fixed_len_byte_array(7) fixed;
    required fixed_len_byte_array(16) id (UUID); required fixed_len_byte_array(2) half (FLOAT16);
    required int32 day (DATE); required int32 t_ms (TIME(MILLIS,true)); required int64 t_ns (TIME(NANOS,false));
    required int64 t_us (TIME_MICROS);
    required int64 at (TIMESTAMP(MILLIS,true)); required int64 local (TIMESTAMP(NANOS,false));
    required int64 legacy_at (TIMESTAMP_MICROS); required int96 impala;
    required int32 dec9 (DECIMAL(9,2)); required fixed_len_byte_array(8) dec_fixed (DECIMAL(18,4));
    required binary dec30 (DECIMAL(30,5)); required binary dec80 (DECIMAL(80,1));
    required fixed_len_byte_array(12) span (INTERVAL); optional int32 nothing (UNKNOWN);
}";

/// What the Rust types do not keep of their columns, each noted.
const LOSSY: &str = "message lossy {
    required fixed_len_byte_array(16) wide_decimal (DECIMAL(18,4));
    required fixed_len_byte_array(8) exact_decimal (DECIMAL(18,4));
    required fixed_len_byte_array(2000) huge;
    required int32 first = 7; required int32 second = 7; required int32 third = 8;
    required int64 legacy_time (TIME_MICROS); required int32 local_time (TIME(MILLIS,false));
    optional group tags (LIST) { repeated group list { required binary element (ENUM); } }
}";

const NAMES: &str = "message _DASH_odd_DOT_names {
    required int32 type; required int32 self; required int32 Self; required int32 crate;
    required int32 userId; required int32 user_id; required int32 first_SP_name;
    required int32 1st; required int32 a_DOT_b; required int32 x_NL_y; required int32 __index_level_0__;
    optional group option { required int32 x; }
    optional group Option { required int32 y; }
    optional group inner { optional group option { required int32 z; } }
}";

/// Asserts that `code` is exactly `golden` (the text of `golden/$name.txt`);
/// with `MAGNOLIFY_BLESS=1` in the environment, writes `code` there
/// instead, for a change meant to change the output (then review the diff).
pub(super) fn assert_golden(code: &str, golden: &str, name: &str) {
    if std::env::var_os("MAGNOLIFY_BLESS").is_some() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/codegen/golden").join(name);
        std::fs::write(&path, code).expect("write the golden file");
        return;
    }
    assert_eq!(code, golden, "golden/{name} (MAGNOLIFY_BLESS=1 rewrites it)");
}

/// `#[test] fn $name`: the code generated for `$schema` is exactly
/// `golden/$name.txt`, and rustfmt-clean.
macro_rules! golden_test {
    ($name:ident, $schema:expr) => {
        #[test]
        fn $name() {
            let file = concat!(stringify!($name), ".txt");
            let code = gen($schema);
            assert_golden(&code, include_str!(concat!("golden/", stringify!($name), ".txt")), file);
            assert_rustfmt_clean(&code);
        }
    };
}

golden_test!(nested_groups, NESTED);

#[test]
fn root_name_option() {
    let mut o = opts();
    o.root_name = Some("Trip".to_owned());
    let code = generate(&parse(NESTED), &[], &o).expect("generated");
    assert!(code.contains("#[parquet(rename = \"trip_record\")]\npub struct Trip {\n"), "{code}");
    o.root_name = Some("my trip".to_owned());
    let code = generate(&parse(NESTED), &[], &o).expect("generated");
    assert!(code.contains("pub struct MyTrip {\n"), "{code}");
}

golden_test!(every_list_layout, LISTS);

golden_test!(maps, MAPS);

golden_test!(logical_types, LOGICAL);

golden_test!(odd_names_and_collisions, NAMES);

golden_test!(what_types_do_not_keep, LOSSY);

/// A byte column of a logical type with no Rust counterpart reads as its
/// bytes; the annotation is not written back.
#[test]
fn unknown_byte_annotations_are_noted() {
    let leaf = Type::primitive_type_builder("shape", parquet::basic::Type::BYTE_ARRAY)
        .with_repetition(parquet::basic::Repetition::REQUIRED)
        .with_logical_type(Some(parquet::basic::LogicalType::geometry(None)))
        .build()
        .expect("leaf");
    let message = Type::group_type_builder("m").with_fields(vec![Arc::new(leaf)]).build().expect("message");
    let code = generate(&message, &[], &opts()).expect("generated");
    let expected = "    /// Parquet: `shape`\n    ///\n    /// Read as raw bytes, written back unannotated: \
                    `REQUIRED BYTE_ARRAY shape (GEOMETRY)`.\n    pub shape: Vec<u8>,\n";
    assert!(code.contains(expected), "{code}");
}

/// A negative field id is no id to the derive: noted, not kept.
#[test]
fn negative_field_ids_are_noted() {
    let leaf = Type::primitive_type_builder("n", parquet::basic::Type::INT32)
        .with_repetition(parquet::basic::Repetition::REQUIRED)
        .with_id(Some(-1))
        .build()
        .expect("leaf");
    let message = Type::group_type_builder("m").with_fields(vec![Arc::new(leaf)]).build().expect("message");
    let code = generate(&message, &[], &opts()).expect("generated");
    assert!(
        code.contains(
            "    /// Parquet: `n`, field id -1\n    ///\n    /// Not kept: field id -1 (negative).\n    pub n: i32,\n"
        ),
        "{code}"
    );
}

#[test]
fn outputs_are_rustfmt_clean() {
    let all: String =
        [NESTED, LISTS, MAPS, LOGICAL, NAMES, LOSSY].iter().map(|s| gen(s)).collect::<Vec<_>>().join("\n");
    // One file: the `use` lines repeat, which rustfmt does not mind.
    assert_rustfmt_clean(&all);
}

/// Names and types of every length around the 100-column limit, where
/// rustfmt starts breaking attributes and types.
#[test]
fn long_lines_are_laid_out_as_rustfmt_does() {
    let mut fields = String::new();
    for n in 40..=110 {
        let name = format!("f{}", "x".repeat(n));
        fields.push_str(&format!(
            "optional group {name}_NL_ (MAP) {{ repeated group key_value {{ required binary key (STRING);
               optional group value (LIST) {{ repeated group list {{ optional int64 element (TIMESTAMP(MILLIS,true)); }} }} }} }}
             required int32 {name};\n"
        ));
        // No rename: the identifier alone pushes the type past the limit.
        fields.push_str(&format!(
            "optional group g{name} (LIST) {{ repeated group list {{ optional binary element (STRING); }} }}
             optional int64 t{name} (TIMESTAMP(MICROS,true));\n"
        ));
    }
    let code = gen(&format!("message m {{ {fields} }}"));
    assert_rustfmt_clean(&code);
}

/// Each finding of the engines asked for is noted once, on the innermost
/// field whose path holds its column; the header counts them.
#[test]
fn engine_findings_are_noted_on_their_fields() {
    let schema = parse(
        "message m {
           required fixed_len_byte_array(16) id (UUID);
           required group inner { required fixed_len_byte_array(2) ratio (FLOAT16); required int32 n; }
           optional group at (LIST) { repeated group list { required int64 element (TIMESTAMP(NANOS,true)); } }
           required int64 big (INTEGER(64,false));
         }",
    );
    let code = generate(&schema, &[], &CodegenOptions { engines: vec![Engine::Spark, Engine::PyArrow], ..opts() })
        .expect("generated");
    let notes: Vec<&str> = code.lines().filter(|l| l.contains("spark: ") || l.contains("pyarrow: ")).collect();
    assert_eq!(
        notes,
        [
            "// spark: 3 unreadable, 1 read differently, noted on the fields \
             (`WriterBuilder::readable_by(Engine::Spark)` refuses the unreadable when writing).",
            "// pyarrow: 1 read differently, noted on the fields.",
            "    /// spark: unreadable: Spark has no UUID type: \"Illegal Parquet type: FIXED_LEN_BYTE_ARRAY (UUID)\"",
            "    /// pyarrow: different: UUID reads as fixed_size_binary(16) (arrow.uuid only with \
             arrow_extensions_enabled=True)",
            "    /// spark: unreadable (`at.list.element`): TIMESTAMP(NANOS) is refused; with \
             spark.sql.legacy.parquet.nanosAsLong=true it reads as BIGINT nanoseconds",
            "    /// spark: different: UINT_64 reads as DECIMAL(20,0): Spark has no unsigned types",
            "    /// spark: unreadable: Spark has no FLOAT16 type: \"Illegal Parquet type\"",
        ],
        "{code}"
    );
    assert!(code.contains(
        "    /// spark: unreadable: Spark has no FLOAT16 type: \"Illegal Parquet type\"\n    pub ratio: half::f16,"
    ));
    assert_rustfmt_clean(&code);
}

#[test]
fn errors() {
    let leaf = Type::primitive_type_builder("x", parquet::basic::Type::INT32).build().expect("leaf");
    assert_eq!(generate(&leaf, &[], &opts()), Err(CodegenError::NotAMessage));
    let empty = Type::group_type_builder("m").build().expect("group");
    assert_eq!(generate(&empty, &[], &opts()), Err(CodegenError::NoColumns));
    let interval = parse("message m { required fixed_len_byte_array(12) i (INTERVAL); optional group g { } }");
    assert!(matches!(generate(&interval, &[], &opts()), Err(CodegenError::NothingReadable(_))));
}

#[test]
fn deep_nesting_is_left_out_not_overflowed() {
    let mut node = Type::primitive_type_builder("leaf", parquet::basic::Type::INT32)
        .with_repetition(parquet::basic::Repetition::REQUIRED)
        .build()
        .expect("leaf");
    for depth in 0..150 {
        node = Type::group_type_builder(&format!("g{depth}"))
            .with_repetition(parquet::basic::Repetition::OPTIONAL)
            .with_fields(vec![Arc::new(node)])
            .build()
            .expect("group");
    }
    let plain = Type::primitive_type_builder("id", parquet::basic::Type::INT64)
        .with_repetition(parquet::basic::Repetition::REQUIRED)
        .build()
        .expect("leaf");
    let message =
        Type::group_type_builder("m").with_fields(vec![Arc::new(plain), Arc::new(node)]).build().expect("message");
    let code = generate(&message, &[], &opts()).expect("generated");
    assert!(code.contains("    // Parquet: `g149` is left out: nested deeper than 100 levels\n"), "{code}");
    assert_rustfmt_clean(&code);
}

/// `#[parquet(json)]` where every text column of a field is JSON; a field
/// that mixes JSON with other text keeps no attribute and says so.
#[test]
fn json_columns_keep_their_annotation_where_a_field_is_all_json() {
    let schema = "message m {
        optional group docs (LIST) { repeated group list { required binary element (JSON); } }
        required group by_key (MAP) { repeated group key_value {
            required binary key (STRING); required binary value (JSON); } }
    }";
    let code = generate(&parse_message_type(schema).expect("parses"), &[], &opts()).expect("generated");
    assert!(code.contains("    #[parquet(json)]\n    pub docs: Option<Vec<String>>,\n"), "{code}");
    let mixed = "    /// Not kept: the JSON annotation of some of its text columns (the others are not JSON; all are \
                 written back as STRING).\n    pub by_key:";
    assert!(code.contains(mixed), "{code}");
}

/// Groups of the same fields make one struct (two enums with data of one
/// type, here as the library writes them), and the fields of both name it.
#[test]
fn identical_groups_make_one_struct() {
    let code = gen(
        "message Paid {
          required group payment { required binary variant (STRING); optional group Card { required binary last4 (STRING); } }
          optional group refund { required binary variant (STRING); optional group Card { required binary last4 (STRING); } }
        }",
    );
    assert_eq!(code.matches("pub struct").count(), 3, "{code}");
    assert!(code.contains("pub refund: Option<Payment>,"), "{code}");
    assert!(code.contains("/// The same fields as group `refund.Card`.\n"), "{code}");
}
