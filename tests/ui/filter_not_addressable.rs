// Fields inside lists and maps have no handles, and ordering is only for
// ordered types.
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
    let _ = Leg::fields().mode.eq(Mode::Bus);
    let _ = Leg::fields().mode.lt(Mode::Train);
}
