# rustv0.t: a Rust program built with -C symbol-mangling-version=v0 (spinning
# in <rust_v0::Work<u32>>::spin, tests/sample/prog/rust_v0.rs) is recorded,
# and report names its hot function the way Rust's demangler prints it
# (no crate hash); --no-demangle keeps the "_R..." symbol. Skipped where
# rustc is absent or pmkit was built without libiberty.
. tests/support/t.sh
prog=$(pwd)/tests/sample/prog
cd "$T_TMP" || exit 1
require rustc
if ! rustc -O -C symbol-mangling-version=v0 -o rv "$prog/rust_v0.rs" 2>rustc.err; then
	skip "Rust v0 names" "rustc cannot build with v0 mangling: $(head -1 rustc.err)"; exit 0
fi
require sample
run_pmkit record -q -o rv.rec -- ./rv 0.4
check "record a v0-mangled Rust program" [ "$rc" = 0 ]
run_pmkit report -i rv.rec --no-demangle
check "--no-demangle keeps the v0 symbol _RNvMCs..._7rust_v0INtB2_4WorkmE4spinB2_" \
	sh -c "printf '%s\n' \"\$1\" | grep -Eq ' _RNvMCs[0-9A-Za-z]*_7rust_v0INtB2_4WorkmE4spinB2_ +rv\$'" _ "$out"
if ! have libiberty; then
	skip "Rust v0 names demangled" "$T_WHY"; exit 0
fi
run_pmkit report -i rv.rec
check "v0 name demangled: <rust_v0::Work<u32>>::spin, no crate hash" \
	sh -c "printf '%s\n' \"\$1\" | grep -Eq ' <rust_v0::Work<u32>>::spin +rv\$'" _ "$out"
check "no v0 symbol left mangled in rv" \
	sh -c "! printf '%s\n' \"\$1\" | grep -Eq ' _R[0-9A-Za-z_]+ +rv\$'" _ "$out"
