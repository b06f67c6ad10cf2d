#!/usr/bin/env bash
# Checks the speed targets on one divan run: ratios of medians taken from the
# same output (a saved run such as benches/RESULTS.txt, or stdin).
#   bash benches/tools/check_targets.sh benches/RESULTS.txt
#   cargo bench -p benches -- --color never | bash benches/tools/check_targets.sh
# Exits 1 when a target is missed. A key ending in @item is the median per
# item (divan_medians.py): the seed group's lending read times a batch of
# 1,024 records per op, its other reads one record.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
medians="$(mktemp)"
trap 'rm -f "$medians"' EXIT
python3 "$here/divan_medians.py" < "${1:-/dev/stdin}" > "$medians"
python3 "$here/bench_ratios.py" "$medians" \
  'seed/write_avro:seed/write_derive>=3' \
  'store/read_latency_c1:store/read_latency_c32>=10' \
  'store/write_latency_c1:store/write_latency_c8>=4' \
  'seed/read_avro:seed/read_derive>=5' \
  'seed/read_avro@item:seed/read_derive_borrowed@item>=10' \
  'flat/read_derive_borrowed:flat/read_arrow_decode_only<=1.0' \
  'nested/read_derive_borrowed:nested/read_arrow_decode_only<=1.0' \
  'flat/transform_arrow:flat/transform_borrowed>=1.5' \
  'nested/read_derive_file:nested/read_arrow_decode_only<=1.2' \
  'flat/read_derive_file:flat/read_arrow_decode_only<=1.3' \
  'nested/write_derive_file:nested/write_arrow_encode_only<=1.0' \
  'flat/write_derive_file:flat/write_arrow_encode_only<=1.0' \
  'nested/read_row_api:nested/read_derive>=5' \
  'flat/read_row_api:flat/read_derive>=5' \
  'flat/read_parquet_derive:flat/read_derive_file_required>=1.2' \
  'file/write_derive:file/write_derive_threads2>=1.6' \
  'file/read_derive:file/read_derive_threads2>=1.6' \
  'nested/write_avro:nested/write_derive>=2' \
  'nested/read_avro:nested/read_derive>=3' \
  'nested/write_derive:nested/write_columnar<=1.3' \
  'nested/read_derive:nested/read_columnar<=1.3' \
  'flat/write_derive:flat/write_columnar<=1.3' \
  'flat/read_derive:flat/read_columnar<=1.3' \
  'flat/write_parquet_derive:flat/write_derive_file>=1' \
  'flat/write_arrow:flat/write_derive_file>=1' \
  'flat/read_arrow:flat/read_derive_file>=1' \
  'nested/write_arrow:nested/write_derive_file>=1' \
  'nested/read_arrow:nested/read_derive_file>=1' \
  'flat/read_typed_arrow:flat/read_derive_file>=1' \
  'nested/read_typed_arrow:nested/read_derive_file>=1' \
  'file/write_arrow:file/write_derive>=1' \
  'file/read_arrow:file/read_derive>=1' \
  'filter/read_filtered:filter/read_full<=0.05'
