# netns.t: one MPI job over two "hosts" on this machine: two network
# namespaces joined by a veth pair, the second with its own host name.
# mpirun starts in the first; its remote-shell agent is a script that
# enters the second namespace (and a new UTS namespace named after it)
# instead of ssh. Ranks talk over TCP between the namespaces, with
# mpi_yield_when_idle set (docs/mpi.md: the hosts share the CPUs). The
# addresses go only on the veth pair made here. Runs as root (CI's `make
# check`); skips, with the reason, where namespaces cannot be made (no
# privilege, no ip or unshare). PMK_NETNS_YIELD=0 runs without the yield
# setting; PMK_NETNS_KEEP=DIR keeps the program's output and the banner.
. tests/support/t.sh
LIB=$PMK_BUILD/libpmkit-mpi.so
PROG=$PMK_BUILD/mpi/imbalanced
if [ ! -f "$LIB" ] || ! command -v mpirun >/dev/null 2>&1; then
	skip "mpi over two namespaces" "no MPI here: libpmkit-mpi not built (Debian packages openmpi-bin, libopenmpi-dev)"
	exit 0
fi
if ! command -v ip >/dev/null 2>&1 || ! command -v unshare >/dev/null 2>&1; then
	skip "mpi over two namespaces" "needs ip (iproute2) and unshare (util-linux)"
	exit 0
fi
a=pmk$$a b=pmk$$b va=pv$$a vb=pv$$b net=10.213.$(($$ % 250)).
cleanup() { ip netns del "$a" 2>/dev/null; ip netns del "$b" 2>/dev/null; rm -rf "$T_TMP"; }
trap cleanup EXIT
if ! ip netns add "$a" 2>/dev/null || ! ip netns add "$b" 2>/dev/null ||
	! ip link add "$va" type veth peer name "$vb" 2>/dev/null; then
	skip "mpi over two namespaces" "cannot create network namespaces here (needs root/CAP_NET_ADMIN)"
	exit 0
fi
ip link set "$va" netns "$a" && ip link set "$vb" netns "$b" &&
	ip -n "$a" addr add "${net}1/24" dev "$va" && ip -n "$b" addr add "${net}2/24" dev "$vb" &&
	ip -n "$a" link set lo up && ip -n "$b" link set lo up &&
	ip -n "$a" link set "$va" up && ip -n "$b" link set "$vb" up ||
	{ nok "namespaces set up" "ip failed"; exit 0; }
cat > "$T_TMP/agent" <<EOS
#!/bin/sh
host=\$1; shift
[ "\$host" = "${net}2" ] || { echo "agent: unknown host \$host" >&2; exit 1; }
exec ip netns exec $b unshare --uts sh -c "hostname pmk-second; \$*"
EOS
chmod +x "$T_TMP/agent"
PRE=$LIB
case "$PMK_BUILD" in *san*)
	PRE="$(${CC:-cc} -print-file-name=libasan.so) $LIB"
	export ASAN_OPTIONS=detect_leaks=0;;
esac
# mpi_yield_when_idle: the two "hosts" share this machine's CPUs, and
# each mpirun sees only its own ranks, so without it every rank
# busy-polls while it waits (docs/mpi.md: an Allreduce took 32-39 ms and
# MPI_Finalize 0.27 s more); PMK_NETNS_YIELD=0 runs without it
(cd "$T_TMP" && timeout 120 ip netns exec "$a" mpirun --allow-run-as-root --oversubscribe \
	--mca plm_rsh_agent "$T_TMP/agent" --host "${net}1:2,${net}2:2" -np 4 \
	--mca mpi_yield_when_idle "${PMK_NETNS_YIELD:-1}" \
	--mca btl tcp,self --mca btl_tcp_if_include "${net}0/24" --mca oob_tcp_if_include "${net}0/24" \
	-x LD_PRELOAD="$PRE" -x ASAN_OPTIONS "$PROG" 30 2 >"$T_TMP/o" 2>"$T_TMP/e")
rc=$?
[ -n "$PMK_NETNS_KEEP" ] && cp "$T_TMP/o" "$T_TMP/e" "$PMK_NETNS_KEEP/"
if [ "$rc" != 0 ]; then
	nok "job over two namespaces" "mpirun exit $rc: $(tail -3 "$T_TMP/e" | tr '\n' ' ')"
	exit 0
fi
check "banner counts 2 hosts" grep -q '^# hosts   : 2 (' "$T_TMP/e"
"$PMKIT" mpi report --csv "$T_TMP/pmkit-mpi.json" > "$T_TMP/c.csv"
hosts=$(awk -F, '$2=="rank" && $4=="wall" {print $1 ":" $3}' "$T_TMP/c.csv" | sort | tr '\n' ' ')
check "ranks 2 and 3 ran on the second host ($hosts)" sh -c "echo '$hosts' | grep -q '2:pmk-second 3:pmk-second' && ! echo '$hosts' | grep -q '[01]:pmk-second'"
truth=$(sed -n 's/^truth: imbalance //p' "$T_TMP/o")
banner=$(awk '$2=="compute" {print $NF}' "$T_TMP/e")
check "compute imbalance across hosts $banner within 5 % of the program's $truth" \
	awk -v t="$truth" -v b="$banner" 'BEGIN { d = b / t - 1; exit !(t > 1 && d < 0.05 && d > -0.05) }'
n=$(awk -F, '$2=="call" && $3=="MPI_Recv" && $4=="bytes_recv" && $5==10240' "$T_TMP/c.csv" | wc -l)
check "every rank received its 10 KiB over TCP ($n)" [ "$n" = 4 ]
