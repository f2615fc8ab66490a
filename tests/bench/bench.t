# bench.t: `pmkit bench` and `pmkit probe`: output formats (lmbench's, CSV,
# JSON, SVG) and usage errors. Sizes are tiny; no figure is asserted.
. tests/support/t.sh

# lat_mem_rd's command line and output: "stride=N headers, `MB ns` pairs,
# an empty line after each block, all on stderr, nothing on stdout
run_pmkit bench lat 1 64 128 --quick --per-octave 2
check "lat: lmbench form exits 0" test "$rc" = 0
check "lat: lmbench form prints nothing on stdout" test -z "$out"
check "lat: stride headers" sh -c 'printf "%s\n" "$1" | grep -c "^\"stride=" | grep -qx 2' _ "$err"
check "lat: pairs in lat_mem_rd format" sh -c '
	printf "%s\n" "$1" | grep -v "^\"stride=" | grep -v "^$" |
	grep -vqE "^[0-9]+\.[0-9]{5} [0-9]+\.[0-9]{3}$" && exit 1; exit 0' _ "$err"
check "lat: blank line closes each block" sh -c 'grep -c "^$" "$1" | grep -qx 2' _ "$T_TMP/err"
check "lat: sizes increase up to 1 MB" sh -c '
	printf "%s\n" "$1" | awk "/^\"stride=128/{b=1;next} b&&NF==2{if(\$1<=p)bad=1;p=\$1} END{exit bad||p!=1}"' _ "$err"

run_pmkit bench lat --quick --max 64k --csv --mode random,random-all,stride
check "lat: csv exits 0" test "$rc" = 0
check "lat: csv header" sh -c 'printf "%s\n" "$1" | head -1 | grep -qx "mode,stride_bytes,size_bytes,ns_min,ns_median,cycles"' _ "$out"
check "lat: csv has all three modes" sh -c 'for m in random random-all stride; do printf "%s\n" "$1" | grep -q "^$m,64," || exit 1; done' _ "$out"

run_pmkit bench lat --quick --max 64k --json --svg "$T_TMP/lat.svg" --huge
if have python3; then
	check "lat: json parses, points ordered" python3 -c '
import json,sys; d=json.loads(sys.argv[1]); s=d["series"][0]
assert d["benchmark"]=="lat" and d["core_ghz"]>0 and s["mode"]=="random"
sz=[p["size_bytes"] for p in s["points"]]; assert sz==sorted(sz) and sz[-1]==65536
assert all(p["ns"]>0 and p["ns_median"]>=p["ns"] for p in s["points"])' "$out"
else skip "lat: json parses" "$T_WHY"; fi
check "lat: svg written" grep -q "</svg>" "$T_TMP/lat.svg"

run_pmkit bench bw 64k rd frd bcopy --quick --csv
check "bw: csv rows" sh -c 'printf "%s\n" "$1" | grep -cE "^(rd|frd|bcopy),65536,1,[0-9.]+,[0-9.]+,(sse2|avx2|avx512|neon|scalar|libc)$" | grep -qx 3' _ "$out"
run_pmkit bench bw 64k rd wr cp rdwr --quick --csv --isa scalar
check "bw: --isa scalar" sh -c 'printf "%s\n" "$1" | grep -cE "^(rd|wr|cp|rdwr),65536,1,[0-9.]+,[0-9.]+,scalar$" | grep -qx 4' _ "$out"
run_pmkit bench bw 64k rd --isa mmx
check "bw: unknown ISA exits 2" sh -c '[ "$1" = 2 ] && echo "$2" | grep -q "unknown ISA .mmx."' _ "$rc" "$err"
run_pmkit bench bw 256k rd --quick --sweep --json -P 2 --svg "$T_TMP/bw.svg"
if have python3; then
	check "bw: json sweep" python3 -c '
import json,sys; d=json.loads(sys.argv[1]); r=d["results"]
assert d["threads"]==2 and len(r)>=3 and all(x["mb_s"]>0 for x in r)
assert [x["size_bytes"] for x in r]==sorted(x["size_bytes"] for x in r)' "$out"
else skip "bw: json sweep" "$T_WHY"; fi
check "bw: svg written" grep -q "</svg>" "$T_TMP/bw.svg"
run_pmkit bench bw 1m cp --quick --lmbench
check "bw: lmbench pair on stderr" sh -c 'printf "%s\n" "$1" | grep -qE "^1\.05 [0-9]+\.[0-9]{2}$"' _ "$err"

# usage errors: exit 2, nothing run
run_pmkit bench bw 64k nosuch
check "bw: unknown op exits 2" test "$rc" = 2
check "bw: unknown op named" sh -c 'echo "$1" | grep -q "nosuch"' _ "$err"
run_pmkit bench bw 100 rd
check "bw: tiny size exits 2" test "$rc" = 2
run_pmkit bench lat --mode sideways
check "lat: bad mode exits 2" test "$rc" = 2
run_pmkit bench lat 1 zero
check "lat: bad stride exits 2" test "$rc" = 2
run_pmkit bench lat 1 64 --max 64k
check "lat: SIZE_MB with --max exits 2" sh -c '[ "$1" = 2 ] && echo "$2" | grep -q "use one of them"' _ "$rc" "$err"
run_pmkit bench nosuch
check "bench: unknown benchmark exits 2" test "$rc" = 2
run_pmkit bench
check "bench: no benchmark exits 2" test "$rc" = 2
run_pmkit probe --max 1k
check "probe: tiny --max exits 2" test "$rc" = 2
run_pmkit help bench
check "bench has a manual" sh -c 'echo "$1" | grep -q SYNOPSIS' _ "$out"
run_pmkit help probe
check "probe has a manual" sh -c 'echo "$1" | grep -q SYNOPSIS' _ "$out"

run_pmkit bench os null_syscall ctx pipe_lat tcp_bw --quick --csv
check "os: exits 0" test "$rc" = 0
check "os: csv header" sh -c 'printf "%s\n" "$1" | head -1 | grep -qx "name,unit,median,best"' _ "$out"
check "os: csv rows" sh -c 'printf "%s\n" "$1" | grep -cE "^(null_syscall|ctx_[28]p_(0|16)k|pipe_lat|tcp_bw),(us|MB/s),-?[0-9.]+,-?[0-9.]+$" | grep -qx 7' _ "$out"
run_pmkit bench os sig_install --quick --json
if have python3; then
	check "os: json" python3 -c '
import json,sys; d=json.loads(sys.argv[1]); r=d["results"]
assert d["benchmark"]=="os" and r[0]["name"]=="sig_install" and r[0]["unit"]=="us"' "$out"
else skip "os: json" "$T_WHY"; fi
run_pmkit bench os nosuch
check "os: unknown benchmark exits 2" test "$rc" = 2
