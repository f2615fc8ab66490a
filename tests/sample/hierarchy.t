# hierarchy.t: `pmkit report --stdio --hierarchy` (and `perf report
# --hierarchy` through a `perf` link to pmkit) against perf 6.1 on the SAME
# perf.data: the sort keys as levels (comm, dso, sym by default; --sort's
# order), each entry indented under its parent with its overhead, the
# headings joined by " / ", -n, -q, -t, --percent-limit, the filters, and
# the call chains under the last level (caller order by default, callee
# with --no-children, -g's types). Entries of equal overhead may come in
# another order (perf orders ties by address): each entry is compared with
# the path of entries above it, its chains and its line exactly, and the
# overheads of each entry's children in their order. Without perf, the
# tree's shape on pmkit's own recording.
. tests/support/t.sh
prog=$(pwd)/tests/sample/prog
cd "$T_TMP" || exit 1
require cc
F="-O0 -g -fno-omit-frame-pointer"
${CC:-cc} $F -o cg "$prog/cg_tree.c" &&
	${CC:-cc} $F -shared -fPIC -o libspin.so "$prog/spin_lib.c" &&
	${CC:-cc} $F -o stk "$prog/spin_main.c" -L. -lspin -Wl,-rpath,"$T_TMP" ||
	{ nok "build the programs" "cc failed"; exit 0; }

# The tree as records: "E" an entry (the lines of the entries above it,
# its own line, its chains), "O" the overheads of a parent's children in
# order, "H" a heading (spaces and dots squeezed: a symbol's glibc version,
# which perf keeps and pmkit leaves out, widens them). An entry's depth is
# its indent: three spaces a level. perf's tips and empty comment lines
# are left out.
tree() {
	grep -v '^# (Tip\|^#$' | sed -E 's/@@?GLIBC_[0-9.]+//g' | awk -v sep="$1" '
	function flush() {
		if (cur != "") print "E " path[d] " => " cur chain
		cur = ""; chain = ""
	}
	/^#/ { gsub(/ +/, " "); gsub(/\.+/, "."); print "H " $0; next }
	/^$/ { next }
	/^ +[0-9.]+%[ ,;]/ {
		flush()
		match($0, /^ */); lead = RLENGTH
		d = int(lead / 3) - (sep ? 0 : 1)
		p = d > 0 ? path[d - 1] " > " line[d - 1] : ""
		path[d] = p; line[d] = $0; cur = $0
		pc = $1; sub(/[,;]$/, "", pc); sub(/%.*/, "%", pc)
		ord[p] = ord[p] " " pc
		next
	}
	{ chain = chain "\\n" $0 }
	END { flush(); for (p in ord) print "O " p ":" ord[p] }' | sort
}
# the entries compared, their count and size in the check's name
same() {
	if ! grep -q '^E' p.txt && cmp -s p.txt q.txt; then
		skip "$1" "no entry in perf's output in this run"
		return
	fi
	check "$1 ($(grep -c '^E' q.txt) entries, $(wc -c < q.txt) bytes)" \
		sh -c '[ -s "$1" ] && grep -q "^E" "$1" && cmp -s "$1" "$2"' _ p.txt q.txt
	cmp -s p.txt q.txt || diff p.txt q.txt | head -8 | sed 's/\\n/\n#   /g; s/^/# /'
}

# multi.data: two processes, recorded once both have started (perf record
# -p): a sample taken in a child between its fork and its exec is the
# shell's in perf, the program's in pmkit (the thread's last name:
# docs/profiles.md), and on a guest where exec is slow every recording of
# a shell starting them had such samples
record_multi() {
	./cg 0.5 & c1=$!
	./stk 0.5 & c2=$!
	sleep 0.1
	# perf 6.1 ends itself with SIGTERM when the workload given with
	# -p exits (status 143): the file's samples decide
	perf record -q -g -e cpu-clock -F 1000 -o multi.data -p "$c1,$c2" -- sleep 0.3 >>perf.err 2>&1
	wait
	perf report --stdio -q -i multi.data -g none --sort comm 2>>perf.err | grep -q stk
}
if have perf; then
	if perf record -q -g -e cpu-clock -F 1000 -o cg.data -- ./cg 0.4 >perf.err 2>&1 &&
		perf record -q -e cpu-clock -o flat.data -- ./stk 0.3 >>perf.err 2>&1 &&
		record_multi; then
		perf_ok=1
		# the same command names in both (record again where not)
		for try in 1 2 3; do
			perf report --stdio -q -i multi.data -g none --no-children --sort comm 2>/dev/null | sort > pc.txt
			"$PMKIT" report --stdio -q -i multi.data -g none --no-children --sort comm 2>/dev/null | sort > qc.txt
			cmp -s pc.txt qc.txt && break
			record_multi
		done
	else
		skip "against perf" "perf record fails here: $(head -1 perf.err)"
	fi
else
	skip "against perf" "$T_WHY"
fi
if [ -n "$perf_ok" ]; then
	# with chains: the program's own functions as entries (samples at a
	# process's start and end, in ld.so and libc without frame pointers,
	# have chains perf and pmkit name differently)
	S="--symbols leaf,b1,b2,a1,a2,rec,main"
	# perf 6.1's --symbols hides a whole entry when the sample that made
	# it was not named (a timer interrupt's kernel-leaf sample whose
	# chain runs through b1, say: docs/profiles.md), which pmkit shows:
	# record again where the first sample through an entry was such a one
	for try in 1 2 3; do
		perf report --stdio --hierarchy -i cg.data $S 2>/dev/null | tree > p.txt
		"$PMKIT" report --stdio --hierarchy -i cg.data $S 2>/dev/null | tree > q.txt
		cmp -s p.txt q.txt && break
		perf record -q -g -e cpu-clock -F 1000 -o cg.data -- ./cg 0.4 >>perf.err 2>&1
	done
	for args in "" "--no-children" "-g callee" "-g caller" "-g fractal" \
		"-g flat" "-g folded" "-g graph,5,callee" "-g fractal,1,caller" \
		"-g period" "-g count" "--no-children -g caller,5" "-G" \
		"--max-stack 3" "--percent-limit 20" "-n --no-children" \
		"--children" "--sort dso,sym" "--sort sym,dso" "--sort sym" \
		"--sort comm,dso,sym -g callee" "--sort pid,sym"; do
		perf report --stdio --hierarchy -i cg.data $S $args 2>/dev/null | tree > p.txt
		"$PMKIT" report --stdio --hierarchy -i cg.data $S $args 2>q.err | tree > q.txt
		same "cg.data --hierarchy $args: perf's tree and chains"
	done
	# every entry, no chains; another program with its library; two
	# processes
	for f in "cg.data -g none" "flat.data" "multi.data -g none"; do
		for args in "" "-n" "-q" "--sort comm,dso,sym" "--sort dso,sym" \
			"--sort sym,dso" "--sort sym" "--sort dso" "--sort comm" \
			"--sort pid,dso" "--sort dso,comm,sym -n" "--percent-limit 1" \
			"--percent-limit 5 --sort dso,sym" "-t , -n" "-t ; --sort dso,sym"; do
			case $args in -t*) s=1 ;; *) s= ;; esac
			perf report --stdio --hierarchy -i $f $args 2>/dev/null | tree "$s" > p.txt
			"$PMKIT" report --stdio --hierarchy -i $f $args 2>q.err | tree "$s" > q.txt
			same "$f --hierarchy $args: perf's tree"
		done
	done
	# the filters: a sample not named leaves its entries out, not its
	# share of the levels above
	for args in "--comms cg" "--dsos cg" "--symbols leaf" "--dsos [kernel.kallsyms] -n"; do
		perf report --stdio --hierarchy -i multi.data -g none $args 2>/dev/null | tree > p.txt
		"$PMKIT" report --stdio --hierarchy -i multi.data -g none $args 2>q.err | tree > q.txt
		same "multi.data --hierarchy $args: perf's tree"
	done
	# an entry whose children are all under the limit: perf's "no entry"
	# line under it. The limit: just under an entry that has more than
	# one child (its largest below the limit too)
	L=$(perf report --stdio --hierarchy -q -i multi.data -g none 2>/dev/null | awk '
		function close_to(d) {
			for (; top >= d; top--)
				if (!out && n[top] > 1 && max[top] + 0.02 < v[top]) {
					out = 1; print v[top] - 0.01
				}
		}
		BEGIN { top = -1 }
		/^ +[0-9.]+%/ { match($0, /^ */); d = int(RLENGTH / 3) - 1
			close_to(d)
			v[d] = $1 + 0; n[d] = 0; max[d] = 0; top = d
			if (d > 0) { n[d - 1]++; if (v[d] > max[d - 1]) max[d - 1] = v[d] } }
		END { close_to(0) }')
	if [ -n "$L" ]; then
		for args in "" "-n" "-t ,"; do
			case $args in *-t*) s=1 ;; *) s= ;; esac
			perf report --stdio --hierarchy -i multi.data -g none --percent-limit $L $args 2>/dev/null | tree "$s" > p.txt
			"$PMKIT" report --stdio --hierarchy -i multi.data -g none --percent-limit $L $args 2>q.err | tree "$s" > q.txt
			same "multi.data --hierarchy --percent-limit $L $args: perf's tree, $(grep -c 'no entry' p.txt) 'no entry' line"
		done
	else
		skip "--percent-limit's 'no entry' line" "no entry with two children in this run"
	fi
	# as perf: `perf report --hierarchy` through a link named perf
	mkdir bin && ln -s "$PMKIT" bin/perf
	perf report --stdio --hierarchy -i cg.data $S 2>/dev/null > p0.txt
	bin/perf report --hierarchy -i cg.data $S 2>/dev/null > q0.txt
	tree < p0.txt > p.txt; tree < q0.txt > q.txt
	same "perf report --hierarchy through the perf link: perf's tree"
	# the whole output, order included, where no two siblings tie here
	grep -v '^# (Tip\|^#$' p0.txt > p1.txt; grep -v '^# (Tip\|^#$' q0.txt > q1.txt
	if grep '^O' p.txt | awk -F: '{ n = split($NF, v, " "); for (i = 2; i <= n; i++) if (v[i] == v[i - 1]) t = 1 } END { exit !t }'; then
		skip "perf link: every line in order" "siblings of equal overhead in this run"
	else
		check "perf link: every line as perf's, in order ($(wc -l < q1.txt) lines)" cmp -s p1.txt q1.txt
		cmp -s p1.txt q1.txt || diff p1.txt q1.txt | head -8 | sed 's/^/# /'
	fi
fi

# pmkit's own recording: the shape, without perf
if have sample; then
	run_pmkit record -q -g -o cg.rec -- ./cg 0.3
	if [ "$rc" = 0 ]; then
		run_pmkit report --hierarchy -g none -n -i cg.rec
		printf '%s\n' "$out" > h.txt
		check "pmkit's recording: headings 'Overhead  Samples  Command / Shared Object / Symbol'" \
			grep -Eq '^# +Overhead +Samples  Command / Shared Object / Symbol$' h.txt
		# each level three spaces deeper; a parent's samples are the sum
		# of its children's, the total the samples of the heading
		check "pmkit's recording: each entry's samples are its children's sum" awk '
			function close_to(d) {
				for (; top >= d; top--)
					if (kids[top] && acc[top] != n[top]) bad = 1
			}
			BEGIN { top = -1 }
			/^ +[0-9.]+% / { match($0, /^ */); d = int(RLENGTH / 3) - 1
				close_to(d)
				n[d] = $2; acc[d] = 0; kids[d] = 0; top = d; any++
				if (d > 0) { acc[d - 1] += $2; kids[d - 1] = 1 }
			}
			END { close_to(0); exit bad || !any }' h.txt
		check "pmkit's recording: a cg entry with its dso and leaf under it" sh -c '
			grep -Eq "^ +[0-9.]+% +[0-9]+ +cg *\$" "$1" &&
			grep -Eq "^       +[0-9.]+% +[0-9]+ +cg *\$" "$1" &&
			grep -Eq "^          +[0-9.]+% +[0-9]+ +\[\.\] leaf\$" "$1"' _ h.txt
	else
		skip "pmkit's recording" "cannot record here: $(printf '%s' "$err" | head -1)"
	fi
else
	skip "pmkit's recording" "$T_WHY"
fi
run_pmkit report --hierarchy -F overhead,sym -i cg.data
check "--hierarchy with -F: exit 2, as perf refuses it ($rc)" [ "$rc" = 2 ]
run_pmkit report --hierarchy --json -i cg.data
check "--hierarchy with --json: exit 2 ($rc)" [ "$rc" = 2 ]
