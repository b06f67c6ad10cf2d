// Fields inside lists and maps have no handles (a comparison says the field
// is not addressable), and ordering is only for ordered types.
use magnolify_parquet::ParquetType;

#[derive(ParquetType)]
struct Trip {
    stops: Vec<String>,
    flag: bool,
}

#[derive(ParquetType, PartialEq, Debug, Clone)]
enum Mode {
    Bus,
    Train,
}

#[derive(ParquetType)]
struct Leg {
    mode: Mode,
}

fn main() {
    let _ = Trip::fields().stops.eq(vec![]);
    let _ = Trip::fields().stops.is_in([vec![String::new()]]);
    let _ = Trip::fields().stops.is_null();
    let _ = Leg::fields().mode.eq(Mode::Bus);
    let _ = Leg::fields().mode.lt(Mode::Train);
}
