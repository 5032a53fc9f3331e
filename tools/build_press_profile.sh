#!/usr/bin/env bash
# Builds generator/assets/profiles/pnp-fogra39.icc, the bundled press CMYK profile (issue 34), from the free
# FOGRA39 characterization data (FOGRA39L.ti3 of Debian's icc-profiles-free, zlib licence) with ArgyllCMS's
# colprof. Run by hand when the profile should change; the build never runs it (the profile is committed).
#
#   apt-get install argyll         # colprof
#   bash tools/build_press_profile.sh [FOGRA39L.ti3]
#
# Without an argument the data comes from `apt-get download icc-profiles-free`. The profile's creation date is
# set to 2000-01-01 so that the same data and colprof version give the same bytes (colprof is otherwise
# deterministic: two runs differ only in that date). Built with ArgyllCMS 2.3.1, icc-profiles-free 2.0.1.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
out="$repo/generator/assets/profiles/pnp-fogra39.icc"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"  # apt-get download writes as its own user

command -v colprof >/dev/null || { echo "colprof not found: apt-get install argyll" >&2; exit 1; }
if [[ $# -ge 1 ]]; then
    cp "$1" "$work/FOGRA39L.ti3"
else
    (cd "$work" && apt-get download icc-profiles-free >/dev/null && dpkg-deb -x icc-profiles-free_*.deb deb)
    cp "$work/deb/usr/share/color/icc/FOGRA39L.ti3" "$work/FOGRA39L.ti3"
fi

# -qm: medium quality tables (a small file); -nc: the measurement data is not copied into the profile;
# -kr: black generation ramping from white to black (GCR), -L 95: at most 95 % black, -l 300: at most 300 %
# total ink, the usual limit of coated offset paper (shops with a lower limit get it from the preset's
# `ink_limit:`, which pnp holds after the conversion).
(cd "$work" && colprof -qm -nc -kr -l 300 -L 95 \
    -A "pnp-forge" -M "FOGRA39 (ISO 12647-2:2004, coated paper)" \
    -D "pnp-forge FOGRA39 (from FOGRA39L.ti3)" \
    -C "Data: FOGRA39L.ti3 (Fogra; Kai-Uwe Behrmann, zlib licence). Profile: pnp-forge, zlib licence" \
    FOGRA39L >/dev/null)

python3 - "$work/FOGRA39L.icc" "$out" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
data[24:36] = struct.pack(">6H", 2000, 1, 1, 0, 0, 0)  # the ICC header's creation date, fixed
open(sys.argv[2], "wb").write(data)
PY
sha256sum "$out"
